import { Suspense, lazy, useEffect, useMemo, useState, type ComponentProps } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { PlayerPayload } from '@branchify/player';
import { HEX_COLOR, MESSAGES, type FunnelResource } from '@branchify/shared';
import { ApiError } from '../../shared/api';
import { useCustomization } from '../../shared/customization';
import { useFunnel } from '../../shared/data/queries';
import { Loaded, Loader } from '../../shared/Loader';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';
import { usePageTitle } from '../../shared/usePageTitle';
import { PageHeader } from '../layout/UserLayout';
import { PreviewPlayer } from '../funnels/PreviewPlayer';
import { DocumentStore, fromResource, type EditorLimits, type EditorVideo } from './document-store';
import { SaveErrorsContext, describePath } from './errors';
import { EditorToolbar } from './EditorToolbar';
import { loadFontsOf } from './fonts';
import { FunnelDetails } from './FunnelDetails';
import { FunnelVideoEditor } from './FunnelVideoEditor';
import { FunnelVideoList } from './FunnelVideoList';
import { LeaveGuard } from './LeaveGuard';
import { previewPayload } from './preview';
import { SaveErrorsAlert } from './SaveErrorsAlert';
import { useDocument } from './useDocument';
import { useEditorDialogs, useUpgradeNotice } from './useEditorDialogs';
import { useOpenVideo } from './useOpenVideo';
import { ResumeOfferBar, useResumeOffer } from './useResumeOffer';
import { useSaveFunnel } from './useSaveFunnel';

/** The funnel map loads (with its graph library) only when first shown. */
const FunnelMap = lazy(() => import('../map/FunnelMap').then((m) => ({ default: m.FunnelMap })));

/** FunnelEditor (funnels/{id}/edit). */
export const EditorPage = () => {
  const { id } = useParams();
  const funnel = useFunnel(id);
  const { customization } = useCustomization();
  usePageTitle(funnel.data ? `Edit: ${funnel.data.title}` : 'Editor', customization.app_name);
  if (funnel.isError && isMissing(funnel.error)) return <FunnelMissing />;
  // The editor keeps its own copy while open: a refetch does not replace unsaved work.
  return <Loaded query={funnel}>{(f) => <Editor key={f.id} funnel={f} />}</Loaded>;
};

/** A funnel that is not there for this user (another's, deleted, or a wrong address): asking again will not bring it. */
const isMissing = (error: unknown): boolean => error instanceof ApiError && [400, 403, 404].includes(error.status);

const FunnelMissing = () => (
  <Alert
    severity="warning"
    data-testid="editor-funnel-missing"
    action={
      <Button component={RouterLink} to={ROUTES.FunnelsDashboard} color="inherit" size="small">
        Back to funnels
      </Button>
    }
    sx={{ flexWrap: 'wrap' }}
  >
    {MESSAGES.editorFunnelMissing}
  </Alert>
);

/** The plan's cap on elements per funnel (admins have none). */
const useLimits = (): EditorLimits => {
  const { user, subscription } = useSession();
  return useMemo(
    () => ({ perFunnel: user?.is_admin ? null : (subscription?.plan?.max_branch_per_funnel ?? null) }),
    [user?.is_admin, subscription?.plan?.max_branch_per_funnel],
  );
};

/** The branding's primary colour (as the app's theme reads it), for new buttons; null when none is set. */
const useBrandColor = (): string | null => {
  const { customization } = useCustomization();
  const primary = customization.app_color_scheme['--primary'];
  return primary && HEX_COLOR.test(primary) ? primary : null;
};

/** The editor's own copy of the funnel: the plan's limits kept current, the fonts it uses loaded. */
const useFunnelStore = (funnel: FunnelResource): DocumentStore => {
  const limits = useLimits();
  const buttonColor = useBrandColor();
  const [store] = useState(() => new DocumentStore(fromResource(funnel), limits));
  useEffect(() => store.setLimits(limits), [store, limits]);
  useEffect(() => store.setLook({ buttonColor }), [store, buttonColor]);
  const videos = useDocument(store, (s) => s.doc.videos);
  useEffect(() => loadFontsOf(videos), [videos]);
  return store;
};

/** The funnel being edited: its header and actions, problems, preview, map, videos, details, and one video's editor when open. */
const Editor = ({ funnel }: { funnel: FunnelResource }) => {
  const store = useFunnelStore(funnel);
  const doc = useDocument(store, (s) => s.doc);
  const [previewing, setPreviewing] = useState(0);
  const [showMap, setShowMap] = useState(false);
  const { openVideo, start, setStart, setParams, open: openEditor } = useOpenVideo();
  const { customization } = useCustomization();
  const refuse = useUpgradeNotice(setParams);
  const { errors, saveNow, saving } = useSaveFunnel(store, funnel.id, refuse);
  const { addVideos, removeVideo, deleteElement } = useEditorDialogs(store);
  const resume = useResumeOffer(funnel, setStart, setParams);

  const goTo = (path: string) => {
    const where = describePath(doc, path);
    if (where.editorId) openEditor(where.editorId);
    if (where.elementId) store.selectElement(where.elementId, where.branchId);
  };

  const payload = useMemo(() => (previewing ? previewPayload(funnel, doc, customization) : null), [previewing, funnel, doc, customization]);

  return (
    <SaveErrorsContext.Provider value={errors}>
      <PageHeader title={doc.title || 'Untitled funnel'}>
        <EditorToolbar
          store={store}
          funnelId={funnel.id}
          previewing={previewing > 0}
          onPreview={() => setPreviewing((n) => (n ? 0 : n + 1))}
          saving={saving}
          onSave={() => void saveNow()}
        />
      </PageHeader>

      <ResumeOfferBar offer={resume.offer} onDismiss={resume.dismiss} onResume={resume.resume} />

      <SaveErrorsAlert doc={doc} errors={errors} onShow={goTo} />

      {payload && <EditorPreview payload={payload} run={previewing} />}

      {showMap && (
        <MapSection
          videos={doc.videos}
          onOpen={(editorId, at) => {
            openEditor(editorId);
            if (at) store.selectElement(at.elementId, at.branchId);
          }}
          editing={{ store, onRefused: refuse, removeVideo }}
        />
      )}

      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 1fr) 320px' }, gap: 3 }}>
        <FunnelVideoList
          videos={doc.videos}
          showMap={showMap}
          onToggleMap={() => setShowMap((on) => !on)}
          onAdd={addVideos}
          onEdit={(video) => openEditor(video.editor_id)}
          onRemove={removeVideo}
          onMove={(video, to) => store.moveVideo(video.editor_id, to)}
        />
        <FunnelDetails store={store} title={doc.title} description={doc.description} settings={doc.settings} variables={doc.variables} errors={errors} />
      </Box>

      {openVideo && doc.videos.some((v) => v.editor_id === openVideo) && (
        <FunnelVideoEditor
          key={openVideo}
          store={store}
          editorId={openVideo}
          start={start}
          onDone={() => {
            store.clearSelection();
            setParams({});
          }}
          onRefused={refuse}
          onDelete={deleteElement}
          onLeave={(time) => resume.remember(openVideo, time)}
        />
      )}

      <LeaveGuard store={store} saveNow={saveNow} />
    </SaveErrorsContext.Provider>
  );
};

/** The funnel as a viewer sees it, inline; each opening (`run`) starts it afresh. */
const EditorPreview = ({ payload, run }: { payload: PlayerPayload; run: number }) => (
  <Paper sx={{ p: 2, mb: 3 }} aria-label="Funnel preview" component="section">
    <Typography variant="subtitle1" component="h2" sx={{ mb: 1, fontWeight: 600 }}>
      Preview (not counted as a view)
    </Typography>
    <Box sx={{ maxWidth: 960 }} data-testid="editor-preview">
      <PreviewPlayer key={run} payload={payload} />
    </Box>
  </Paper>
);

/** The map of the funnel, loaded when first shown; picking a node or branch opens it in the editor, and the map edits the funnel too. */
const MapSection = ({ videos, onOpen, editing }: Pick<ComponentProps<typeof FunnelMap>, 'onOpen' | 'editing'> & { videos: readonly EditorVideo[] }) => (
  <Box id="funnel-map-panel" component="section" aria-label="Map of the funnel" sx={{ mb: 3 }}>
    <Suspense fallback={<Loader label="Loading the map" />}>
      <FunnelMap videos={videos} onOpen={onOpen} editing={editing} />
    </Suspense>
  </Box>
);
