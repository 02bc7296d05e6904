import { useRef, useState, type ChangeEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { FUNNEL_IMPORT_LIMITS, PROVIDER_LABELS, messageTemplates, type FunnelImportPlan, type FunnelResource, type VideoProvider } from '@branchify/shared';
import { ApiError, api, errorMessage, type FieldErrors } from '../../shared/api';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { ROUTES } from '../../shared/routes';
import { plural } from '../map/map-shared';
import { VISUALLY_HIDDEN } from '../../shared/visually-hidden';

/** The most problems listed at once (the server names them all; the first ones say enough). */
const PROBLEMS_SHOWN = 8;
const MB = 1024 * 1024;

type Check =
  | { state: 'idle' }
  | { state: 'checking'; file: File }
  | { state: 'ready'; file: File; plan: FunnelImportPlan }
  | { state: 'refused'; file: File | null; message: string; problems: FieldErrors; upgrade: boolean };

const asForm = (file: File): FormData => {
  const body = new FormData();
  body.append('file', file);
  return body;
};

const refusal = (file: File | null, error: unknown): Check => ({
  state: 'refused',
  file,
  message: errorMessage(error),
  problems: error instanceof ApiError ? error.errors : {},
  // The plan's limits answer 403 with the spec's sentences; each asks for a better plan.
  upgrade: error instanceof ApiError && error.status === 403,
});

const providerLabel = (provider: string): string => PROVIDER_LABELS[provider as VideoProvider] ?? provider;

/** A headed list of videos (nothing when there are none). */
const VideoNames = ({ heading, names }: { heading: string; names: Array<{ key: string; text: string }> }) =>
  names.length ? (
    <>
      <Typography variant="body2" component="h3" sx={{ fontWeight: 600, mt: 1 }}>
        {heading}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3 }}>
        {names.map((n) => (
          <li key={n.key}>
            <Typography variant="body2">{n.text}</Typography>
          </li>
        ))}
      </Box>
    </>
  ) : null;

/** A caption track as the summary names it: its video, label and language. */
const trackName = (t: { video: string; label: string | null; language: string | null }): string =>
  `${t.video}: ${t.label ?? 'a track without a label'}${t.language ? ` (${t.language})` : ''}`;

/** The file's caption tracks the import leaves out, each with the reason (an upload would be refused the same way). */
const SkippedCaptions = ({ skipped }: { skipped: FunnelImportPlan['captions']['skipped'] }) =>
  skipped.length ? (
    <Alert severity="warning" sx={{ mt: 1 }} data-testid="import-captions-skipped">
      {skipped.length === 1 ? 'This caption track is not imported:' : `These ${skipped.length} caption tracks are not imported:`}
      <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
        {skipped.map((t, i) => (
          <li key={`${t.ref}-${i}`}>
            {trackName(t)}. {t.reason}
          </li>
        ))}
      </Box>
    </Alert>
  ) : null;

/** What the file will make: the funnel (by the title it will have), the videos added to the library and those already there, the caption tracks. */
const PlanSummary = ({ plan }: { plan: FunnelImportPlan }) => (
  <Box data-testid="import-plan">
    <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
      {plan.title}
    </Typography>
    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
      {plural(plan.videos, 'video')}, {plural(plan.elements.branches, 'branch', 'branches')} and {plural(plan.elements.texts, 'text element')}
      {plan.images ? `, ${plural(plan.images, 'image')}` : ''}
      {plan.captions.added.length ? `, ${plural(plan.captions.added.length, 'caption track')}` : ''}
    </Typography>
    <VideoNames heading="Added to your library" names={plan.added.map((v) => ({ key: v.ref, text: `${v.title} (${providerLabel(v.provider)})` }))} />
    <VideoNames heading="Already in your library" names={plan.matched.map((v) => ({ key: v.ref, text: v.title }))} />
    <VideoNames heading="Caption tracks added" names={plan.captions.added.map((t, i) => ({ key: `${t.ref}-${i}`, text: trackName(t) }))} />
    <SkippedCaptions skipped={plan.captions.skipped} />
  </Box>
);

const Problems = ({ check, onUpgrade }: { check: Extract<Check, { state: 'refused' }>; onUpgrade: () => void }) => {
  const problems = Object.entries(check.problems).flatMap(([path, messages]) => messages.map((m) => `${path === '_' ? '' : `${path}: `}${m}`));
  return (
    <Alert
      severity="error"
      role="alert"
      action={
        check.upgrade ? (
          <Button color="inherit" size="small" onClick={onUpgrade}>
            Upgrade Plan
          </Button>
        ) : undefined
      }
    >
      {check.message}
      {problems.length > 1 && (
        <Box component="ul" sx={{ m: 0, mt: 1, pl: 2.5 }} data-testid="import-problems">
          {problems.slice(0, PROBLEMS_SHOWN).map((p) => (
            <li key={p}>{p}</li>
          ))}
          {problems.length > PROBLEMS_SHOWN && <li>and {problems.length - PROBLEMS_SHOWN} more</li>}
        </Box>
      )}
    </Alert>
  );
};

/** The file input, reached by keyboard and mouse through its button (the input itself is hidden, out of the tab order). */
const FileChooser = ({ file, busy, onChoose }: { file: File | null; busy: boolean; onChoose: (event: ChangeEvent<HTMLInputElement>) => void }) => {
  const input = useRef<HTMLInputElement>(null);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
      <Button variant="outlined" startIcon={<UploadFileIcon />} disabled={busy} onClick={() => input.current?.click()}>
        {file ? 'Choose another file' : 'Choose file'}
      </Button>
      <input ref={input} type="file" accept=".json,application/json" style={VISUALLY_HIDDEN} tabIndex={-1} aria-hidden onChange={onChoose} disabled={busy} />
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }} data-testid="import-file-name">
        {file ? file.name : 'No file chosen'}
      </Typography>
    </Box>
  );
};

/** Progress while the file is checked or imported (announced), then what it will make. */
const CheckStatus = ({ check, importing }: { check: Check; importing: boolean }) => (
  <Box role="status" aria-live="polite" aria-busy={check.state === 'checking' || importing}>
    {check.state === 'checking' && (
      <>
        <Typography variant="body2">Checking the file…</Typography>
        <LinearProgress aria-label="Checking the file" />
      </>
    )}
    {importing && (
      <>
        <Typography variant="body2">Importing…</Typography>
        <LinearProgress aria-label="Importing the funnel" />
      </>
    )}
    {check.state === 'ready' && !importing && <PlanSummary plan={check.plan} />}
  </Box>
);

/**
 * import-funnel: a funnel file made with Export becomes a new funnel. Choosing the file checks it
 * (nothing is made yet) and shows what will be created; Import makes it and opens the editor.
 */
export const ImportFunnelModal = ({ close }: { close: () => void }) => {
  const navigate = useNavigate();
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const create = useApiMutation({
    mutationFn: (file: File) => api.post<FunnelResource>('funnels/import', asForm(file)),
    invalidates: [keys.funnels.all],
    onSuccess: (funnel) => {
      close();
      navigate(ROUTES.FunnelEditor(funnel.id));
    },
  });

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > FUNNEL_IMPORT_LIMITS.maxFileBytes) {
      setCheck(refusal(file, new ApiError(422, messageTemplates.importFileTooLarge(FUNNEL_IMPORT_LIMITS.maxFileBytes / MB))));
      return;
    }
    setCheck({ state: 'checking', file });
    try {
      const res = await api.post<{ plan: FunnelImportPlan }>('funnels/import?dry_run=true', asForm(file));
      setCheck({ state: 'ready', file, plan: res.data.plan });
    } catch (error) {
      setCheck(refusal(file, error));
    }
  };

  const confirm = async () => {
    if (check.state !== 'ready') return;
    try {
      await create.mutateAsync(check.file);
    } catch (error) {
      setCheck(refusal(check.file, error));
    }
  };

  const upgrade = () => {
    close();
    navigate(ROUTES.SelectSubscriptionPlan);
  };
  const busy = check.state === 'checking' || create.isPending;
  const file = check.state === 'idle' ? null : check.file;

  return (
    <>
      <DialogContent sx={{ pt: 0, display: 'grid', gap: 2 }}>
        <Typography variant="body2">
          Choose a funnel file (.json) made with Export. Its videos are added to your library unless they are there already. Nothing is created until you press
          Import.
        </Typography>
        <FileChooser file={file} busy={busy} onChoose={(e) => void choose(e)} />
        <CheckStatus check={check} importing={create.isPending} />
        {check.state === 'refused' && <Problems check={check} onUpgrade={upgrade} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button variant="contained" onClick={() => void confirm()} disabled={check.state !== 'ready' || busy}>
          Import
        </Button>
      </DialogActions>
    </>
  );
};
