import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink, useBlocker, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import InsightsIcon from '@mui/icons-material/Insights';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import RedoIcon from '@mui/icons-material/Redo';
import UndoIcon from '@mui/icons-material/Undo';
import { Player } from '@branchify/player';
import { funnelDocumentSchema, MESSAGES, rootVideo, type FunnelResource } from '@branchify/shared';
import { ApiError, api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { useCustomization } from '../../shared/customization';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { useFunnel } from '../../shared/data/queries';
import { useQuickNotice } from '../../shared/dialogs';
import { Loaded, Loader } from '../../shared/Loader';
import { useModals } from '../../shared/modals';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';
import { useNarrow } from '../../shared/useNarrow';
import { usePageTitle } from '../../shared/useDebounced';
import { PageHeader } from '../layout/UserLayout';
import { DocumentStore, fromResource, toRequestBody, type EditorDocument, type EditorLimits, type EditorVideo } from './document-store';
import { SaveErrorsContext, describePath, type SaveErrors } from './errors';
import { PanelSection, TextValue, ToggleValue } from './fields';
import { loadFontsOf } from './fonts';
import { FunnelVideoEditor } from './FunnelVideoEditor';
import { previewPayload } from './preview';
import { formatTimecode } from './timeline-math';
import { useDocument } from './useDocument';
import { VideoToFunnelModal } from './VideoPickers';
import { VideoPoster } from '../../shared/VideoPoster';

/** The funnel map loads (with its graph library) only when first shown. */
const FunnelMap = lazy(() => import('../map/FunnelMap').then((m) => ({ default: m.FunnelMap })));

/** FunnelEditor (funnels/{id}/edit). */
export const EditorPage = () => {
  const { id } = useParams();
  const funnel = useFunnel(id);
  const { customization } = useCustomization();
  usePageTitle(funnel.data ? `Edit: ${funnel.data.title}` : 'Editor', customization.app_name);
  // The stage, the timeline and the panels need a wide screen. Below `md` the page says so; an
  // editor already open (a tablet turned upright) stays mounted, hidden, so no unsaved work is lost.
  const narrow = useNarrow();
  const [opened, setOpened] = useState(!narrow);
  if (!narrow && !opened) setOpened(true);
  return (
    <>
      {narrow ? <NeedsWiderScreen /> : null}
      {opened ? (
        <Box sx={narrow ? { display: 'none' } : undefined}>
          {/* The editor keeps its own copy while open: a refetch does not replace unsaved work. */}
          <Loaded query={funnel}>{(f) => <Editor key={f.id} funnel={f} />}</Loaded>
        </Box>
      ) : null}
    </>
  );
};

const NeedsWiderScreen = () => (
  <Alert
    severity="info"
    data-testid="editor-needs-wider-screen"
    action={
      <Button component={RouterLink} to={ROUTES.FunnelsDashboard} color="inherit" size="small">
        Back to funnels
      </Button>
    }
    sx={{ flexWrap: 'wrap' }}
  >
    {MESSAGES.editorNeedsWiderScreen}
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

/** Schema problems as the server would name them: path → messages. */
const problemsOf = (doc: EditorDocument): SaveErrors => {
  const parsed = funnelDocumentSchema.safeParse(toRequestBody(doc));
  if (parsed.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (errors[issue.path.join('.')] ??= []).push(issue.message);
  return errors;
};

const Editor = ({ funnel }: { funnel: FunnelResource }) => {
  const limits = useLimits();
  const [store] = useState(() => new DocumentStore(fromResource(funnel), limits));
  useEffect(() => store.setLimits(limits), [store, limits]);
  const doc = useDocument(store, (s) => s.doc);
  const dirty = useDocument(store, (s) => s.dirty);
  const canUndo = useDocument(store, (s) => s.canUndo);
  const canRedo = useDocument(store, (s) => s.canRedo);
  const [errors, setErrors] = useState<SaveErrors>({});
  const [previewing, setPreviewing] = useState(0);
  const [showMap, setShowMap] = useState(false);
  const [start, setStart] = useState<{ time: number; autoplay: boolean } | undefined>(undefined);
  const [params, setParams] = useSearchParams();
  const openVideo = params.get('video');
  const modals = useModals();
  const notice = useQuickNotice();
  const alert = useAlert();
  const navigate = useNavigate();
  const { customization } = useCustomization();

  useEffect(() => loadFontsOf(doc.videos), [doc.videos]);

  // Problems found at the last save clear themselves as they are fixed.
  useEffect(() => setErrors((current) => (Object.keys(current).length ? problemsOf(doc) : current)), [doc]);

  const refuse = useCallback(
    (message: string) =>
      notice({
        message,
        confirmText: 'Upgrade Plan',
        onConfirm: () => {
          setParams({}, { replace: true });
          navigate(ROUTES.SelectSubscriptionPlan);
        },
      }),
    [notice, navigate, setParams],
  );

  const save = useApiMutation({
    mutationFn: (sent: EditorDocument) => api.put<FunnelResource>(`funnels/${funnel.id}`, toRequestBody(sent)),
    invalidates: [keys.funnels.all],
    onSuccess: (_saved, sent) => {
      store.markSaved(sent);
      setErrors({});
    },
  });
  const saveNow = async (): Promise<boolean> => {
    const sent = store.getState().doc;
    const problems = problemsOf(sent);
    if (Object.keys(problems).length) {
      setErrors(problems);
      alert.error(MESSAGES.validationFailed);
      return false;
    }
    try {
      await save.mutateAsync(sent);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) refuse(error.message);
      else {
        if (error instanceof ApiError) setErrors(error.errors);
        alert.error(error);
      }
      return false;
    }
  };

  // Leaving with unsaved changes asks first (in the app, and when the tab closes).
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return undefined;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Ctrl+S saves from anywhere on the page.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void saveNow();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  // resume-video: where the funnel was last watched, offered once when the editor opens.
  const askedToResume = useRef(false);
  useEffect(() => {
    if (askedToResume.current) return;
    askedToResume.current = true;
    const last = funnel.last_view_state;
    if (!last || last.last_watch_time <= 0 || !funnel.videos.some((v) => v.editor_id === last.editor_id)) return;
    modals.open({
      name: 'resume-video',
      title: 'Do you want to resume?',
      maxWidth: 'xs',
      render: ({ close }) => (
        <DialogActions>
          <Button onClick={close}>No</Button>
          <Button
            variant="contained"
            autoFocus
            onClick={() => {
              close();
              setStart({ time: last.last_watch_time, autoplay: true });
              setParams({ video: last.editor_id });
            }}
          >
            Yes
          </Button>
        </DialogActions>
      ),
    });
  }, [funnel.last_view_state, funnel.videos, modals, setParams]);

  const root = rootVideo(doc.videos);
  const openEditor = (editorId: string) => {
    setStart(undefined);
    setParams({ video: editorId });
  };
  const addVideos = () =>
    modals.open({
      name: 'video-to-funnel',
      title: 'Select Video',
      maxWidth: 'md',
      render: ({ close }) => <VideoToFunnelModal close={close} onAdd={(videos) => store.addVideos(videos)} />,
    });
  const removeVideo = (video: EditorVideo) => {
    const into = store.branchesInto(video.editor_id);
    notice({
      header: 'Remove video',
      message: (
        <>
          Remove '{video.video?.title ?? 'this video'}' from the funnel? It stays in your library.
          {into.length > 0 && ` ${into.length} branch${into.length > 1 ? 'es lead' : ' leads'} to it and will need a new target before saving.`}
        </>
      ),
      confirmText: 'Remove',
      danger: true,
      onConfirm: () => store.removeVideo(video.editor_id),
    });
  };
  const deleteElement = (elementId: string) =>
    notice({
      header: 'Delete element',
      message: 'Delete this element? You can undo it with Ctrl+Z.',
      confirmText: 'Delete',
      danger: true,
      onConfirm: () => store.deleteElement(elementId),
    });
  const goTo = (path: string) => {
    const where = describePath(doc, path);
    if (where.editorId) openEditor(where.editorId);
    if (where.elementId) store.selectElement(where.elementId, where.branchId);
  };

  const payload = useMemo(() => (previewing ? previewPayload(funnel, doc, customization) : null), [previewing, funnel, doc, customization]);
  const errorList = Object.entries(errors);

  return (
    <SaveErrorsContext.Provider value={errors}>
      <PageHeader title={doc.title || 'Untitled funnel'}>
        {dirty ? (
          <Chip size="small" label="Unsaved changes" sx={{ bgcolor: '#fff4e5', color: '#663c00' }} data-testid="dirty" />
        ) : (
          <Chip size="small" label="All changes saved" data-testid="saved" />
        )}
        <Tooltip title="Undo (Ctrl+Z)">
          <span>
            <IconButton aria-label="Undo" disabled={!canUndo} onClick={() => store.undo()}>
              <UndoIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title="Redo (Ctrl+Shift+Z)">
          <span>
            <IconButton aria-label="Redo" disabled={!canRedo} onClick={() => store.redo()}>
              <RedoIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Button component={RouterLink} to={ROUTES.FunnelsDashboard}>
          Back to funnels
        </Button>
        <Button component={RouterLink} to={`/funnels/${funnel.id}/analytics`} startIcon={<InsightsIcon />}>
          Analytics
        </Button>
        <Button variant="outlined" startIcon={<PlayArrowIcon />} disabled={doc.videos.length === 0} onClick={() => setPreviewing((n) => (n ? 0 : n + 1))}>
          {previewing ? 'Close preview' : 'Preview'}
        </Button>
        <Button variant="contained" disabled={save.isPending || !dirty} onClick={() => void saveNow()}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </PageHeader>

      {errorList.length > 0 && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="save-errors">
          <AlertTitle>Fix these before saving</AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {errorList.map(([path, messages]) => (
              <li key={path}>
                {describePath(doc, path).label}: {messages[0]}{' '}
                {describePath(doc, path).editorId && (
                  <Button size="small" onClick={() => goTo(path)}>
                    Show
                  </Button>
                )}
              </li>
            ))}
          </Box>
        </Alert>
      )}

      {payload && (
        <Paper sx={{ p: 2, mb: 3 }} aria-label="Funnel preview" component="section">
          <Typography variant="subtitle1" component="h2" sx={{ mb: 1, fontWeight: 600 }}>
            Preview (not counted as a view)
          </Typography>
          <Box sx={{ maxWidth: 960 }} data-testid="editor-preview">
            <Player key={previewing} payload={payload} inline />
          </Box>
        </Paper>
      )}

      {showMap && doc.videos.length > 0 && (
        <Box id="funnel-map-panel" component="section" aria-label="Map of the funnel" sx={{ mb: 3 }}>
          <Suspense fallback={<Loader label="Loading the map" />}>
            <FunnelMap
              videos={doc.videos}
              onOpen={(editorId, at) => {
                openEditor(editorId);
                if (at) store.selectElement(at.elementId, at.branchId);
              }}
            />
          </Suspense>
        </Box>
      )}

      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 1fr) 320px' }, gap: 3 }}>
        <Box component="section" aria-labelledby="funnel-videos-title">
          <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
            <Typography id="funnel-videos-title" variant="h6" component="h2" sx={{ flex: 1 }}>
              Videos
            </Typography>
            <Button
              sx={{ mr: 1 }}
              startIcon={<AccountTreeIcon />}
              aria-expanded={showMap}
              aria-controls="funnel-map-panel"
              disabled={doc.videos.length === 0}
              onClick={() => setShowMap((on) => !on)}
            >
              {showMap ? 'Hide map' : 'Show map'}
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={addVideos}>
              Add videos
            </Button>
          </Stack>
          {root && doc.videos.length > 1 && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="root-rule">
              Viewers start with '{root.video?.title ?? 'the first video'}': the first video that no branch leads to.
            </Typography>
          )}
          {doc.videos.length === 0 ? (
            <Paper sx={{ p: 6, textAlign: 'center' }} data-testid="editor-empty">
              <Typography variant="h6" gutterBottom>
                This funnel has no videos yet.
              </Typography>
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                Add videos from your library, then place text and branch elements on each one.
              </Typography>
              <Button variant="contained" startIcon={<AddIcon />} onClick={addVideos}>
                Add videos
              </Button>
            </Paper>
          ) : (
            <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }} aria-label="Funnel videos">
              {doc.videos.map((video, i) => (
                <VideoRow
                  key={video.editor_id}
                  video={video}
                  index={i}
                  count={doc.videos.length}
                  isRoot={video.editor_id === root?.editor_id}
                  titles={doc.videos}
                  onEdit={() => openEditor(video.editor_id)}
                  onRemove={() => removeVideo(video)}
                  onMove={(to) => store.moveVideo(video.editor_id, to)}
                />
              ))}
            </Box>
          )}
        </Box>
        <Paper component="section" aria-label="Funnel details" sx={{ p: 2, alignSelf: 'start' }}>
          <PanelSection title="Details">
            <TextValue label="Title" value={doc.title} error={errors.title?.[0]} onChange={(title) => store.setMeta({ title })} />
            <TextValue
              label="Description"
              multiline
              value={doc.description}
              error={errors.description?.[0]}
              onChange={(description) => store.setMeta({ description })}
            />
            <ToggleValue
              label="Let viewers resume where they left off"
              checked={doc.settings.enable_resume_play}
              onChange={(on) => store.setMeta({ settings: { enable_resume_play: on } })}
            />
          </PanelSection>
        </Paper>
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
        />
      )}

      <Dialog open={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} aria-labelledby="leave-title" data-modal="unsaved-changes">
        <DialogTitle id="leave-title">Leave without saving?</DialogTitle>
        <DialogContent>
          <DialogContentText>This funnel has changes that are not saved yet.</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => blocker.reset?.()}>Stay</Button>
          <Button color="error" onClick={() => blocker.proceed?.()}>
            Leave without saving
          </Button>
          <Button
            variant="contained"
            onClick={async () => {
              if (await saveNow()) blocker.proceed?.();
              else blocker.reset?.();
            }}
          >
            Save and leave
          </Button>
        </DialogActions>
      </Dialog>
    </SaveErrorsContext.Provider>
  );
};

/** One video of the funnel: what it is, where its branches lead, and its actions. */
const VideoRow = ({
  video,
  index,
  count,
  isRoot,
  titles,
  onEdit,
  onRemove,
  onMove,
}: {
  video: EditorVideo;
  index: number;
  count: number;
  isRoot: boolean;
  titles: readonly EditorVideo[];
  onEdit: () => void;
  onRemove: () => void;
  onMove: (to: number) => void;
}) => {
  const texts = video.elements.filter((e) => e.type === 'text').length;
  const branches = video.elements.filter((e) => e.type === 'branch').length;
  const targets = [
    ...new Set(
      video.elements.flatMap((e) => (e.type === 'branch' ? e.data.branches.filter((b) => b.onclick === 'branch' && b.video).map((b) => b.video!) : [])),
    ),
  ];
  const name = (editorId: string) => {
    const i = titles.findIndex((v) => v.editor_id === editorId);
    return i < 0 ? 'a removed video' : (titles[i]!.video?.title ?? `Video ${i + 1}`);
  };
  const title = video.video?.title ?? `Video ${index + 1} (removed from the library)`;
  return (
    <Paper component="li" data-testid="funnel-video" sx={{ display: 'flex', gap: 2, p: 1.5, alignItems: 'center' }}>
      <VideoPoster video={video.video} sx={{ width: 128, flex: 'none', borderRadius: 1 }} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography sx={{ fontWeight: 600 }} noWrap title={title}>
            {title}
          </Typography>
          {isRoot && <Chip size="small" color="primary" label="Start" />}
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {video.video?.duration ? `${formatTimecode(video.video.duration)} · ` : ''}
          {texts} text · {branches} branch{branches === 1 ? '' : 'es'}
          {targets.length > 0 && ` · leads to ${targets.map(name).join(', ')}`}
        </Typography>
      </Box>
      <Tooltip title="Move up">
        <span>
          <IconButton aria-label={`Move ${title} up`} disabled={index === 0} onClick={() => onMove(index - 1)}>
            <ArrowUpwardIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title="Move down">
        <span>
          <IconButton aria-label={`Move ${title} down`} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
            <ArrowDownwardIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Button variant="outlined" startIcon={<EditIcon />} onClick={onEdit} aria-label={`Edit ${title}`}>
        Edit
      </Button>
      <Tooltip title="Remove from funnel">
        <IconButton aria-label={`Remove ${title}`} onClick={onRemove}>
          <DeleteIcon />
        </IconButton>
      </Tooltip>
    </Paper>
  );
};
