import { AdminTitle } from '../layout/AdminTitle';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { MESSAGES } from '@branchify/shared';
import { api, errorMessage } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { Loaded } from '../../shared/Loader';
import { useModals } from '../../shared/modals';
import { LicenseKeyModal } from './LicenseKeyModal';
import { updateKeys, useUpdateInfo, type UpdateInfo } from './queries';

type Phase = 'idle' | 'downloading' | 'applying' | 'done' | 'failed';

const STEPS = ['Download and verify', 'Apply'];
const activeStep: Record<Phase, number> = { idle: -1, downloading: 0, applying: 1, done: 2, failed: -1 };

const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Box sx={{ display: 'flex', gap: 2, py: 1.25, borderBottom: '1px solid', borderColor: 'divider', flexWrap: 'wrap', alignItems: 'center' }}>
    <Typography component="dt" variant="body2" sx={{ width: 160, fontWeight: 600 }}>
      {label}
    </Typography>
    <Box component="dd" sx={{ m: 0, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      {children}
    </Box>
  </Box>
);

const LATEST = 'You are running the latest version.';

/**
 * Where the installation stands, one state at a time: without a feed nothing can be checked, without
 * a key the latest version is unknown, a failed check says why, an installed update waits for a
 * restart, otherwise a newer version is or is not available.
 */
type UpdateState =
  | { kind: 'not-configured' }
  | { kind: 'no-key' }
  | { kind: 'check-failed'; message: string }
  | { kind: 'restart'; version: string }
  | { kind: 'available'; version: string }
  | { kind: 'latest'; version: string };

const stateOf = (info: UpdateInfo): UpdateState => {
  if (!info.feed_configured) return { kind: 'not-configured' };
  if (!info.license_key) return { kind: 'no-key' };
  if (info.check_error) return { kind: 'check-failed', message: info.check_error };
  if (info.restart_required) return { kind: 'restart', version: info.applied_version ?? info.latest_version };
  if (info.update_available) return { kind: 'available', version: info.latest_version };
  return { kind: 'latest', version: info.latest_version };
};

const sentenceOf = (state: UpdateState): string => {
  switch (state.kind) {
    case 'not-configured':
      return MESSAGES.updatesNotConfigured;
    case 'no-key':
      return 'Save your license key to check for updates.';
    case 'check-failed':
      return state.message;
    case 'restart':
      return `Version ${state.version} is installed. ${MESSAGES.updateApplied}`;
    case 'available':
      return `Version ${state.version} is available.`;
    case 'latest':
      return LATEST;
  }
};

const severityOf: Record<UpdateState['kind'], 'info' | 'error' | 'success' | 'warning'> = {
  'not-configured': 'info',
  'no-key': 'info',
  'check-failed': 'error',
  restart: 'warning',
  available: 'success',
  latest: 'success',
};

const checkedAt = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium' }) : null);

/** An update is running: downloading or applying. */
const isBusy = (phase: Phase) => phase === 'downloading' || phase === 'applying';

interface Failure {
  step: number;
  message: string;
}

/** Download (unless this version is already downloaded) then apply, each step shown as it runs. */
const useUpdateRun = (info: UpdateInfo) => {
  const client = useQueryClient();
  const alert = useAlert();
  const [phase, setPhase] = useState<Phase>('idle');
  const [failure, setFailure] = useState<Failure | null>(null);
  const [target, setTarget] = useState<string | null>(null);
  const update = async () => {
    setFailure(null);
    setTarget(info.latest_version);
    let step = 0;
    try {
      if (info.downloaded_version !== info.latest_version) {
        setPhase('downloading');
        const downloaded = await api.post<UpdateInfo>('admin/updates/download');
        alert.success(downloaded.message ?? '');
      }
      step = 1;
      setPhase('applying');
      const applied = await api.post<UpdateInfo>('admin/updates/apply');
      alert.success(applied.message ?? '');
      client.setQueryData(updateKeys.info, applied.data);
      setPhase('done');
    } catch (error) {
      setFailure({ step, message: errorMessage(error) });
      setPhase('failed');
      alert.error(error);
      await client.invalidateQueries({ queryKey: updateKeys.info });
    }
  };
  return { phase, failure, target, update };
};

/** The running or last update here: its steps, what it is doing, and how it ended. */
const UpdateProgress = ({ phase, failure, target }: { phase: Phase; failure: Failure | null; target: string | null }) => {
  const busy = isBusy(phase);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }} aria-labelledby="update-progress-title" component="section" data-testid="update-progress">
      <Typography id="update-progress-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        Updating to {target}
      </Typography>
      <Stepper activeStep={phase === 'failed' ? (failure?.step ?? 0) : activeStep[phase]}>
        {STEPS.map((label, index) => (
          <Step key={label} completed={phase === 'done' || (busy && index < activeStep[phase]) || (phase === 'failed' && index < (failure?.step ?? 0))}>
            <StepLabel error={phase === 'failed' && index === failure?.step}>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <Box sx={{ mt: 2 }} role="status" aria-live="polite">
        {busy && (
          <>
            <LinearProgress aria-label={phase === 'downloading' ? 'Downloading' : 'Applying'} sx={{ mb: 1 }} />
            <Typography variant="body2">
              {phase === 'downloading' ? `Downloading and verifying version ${target}...` : `Applying version ${target}...`} Keep this page open.
            </Typography>
          </>
        )}
        {phase === 'done' && (
          <Alert severity="success">
            {MESSAGES.appUpdated}. {MESSAGES.updateApplied}
          </Alert>
        )}
        {phase === 'failed' && failure && <Alert severity="error">{failure.message}</Alert>}
      </Box>
    </Paper>
  );
};

const UpdatePanel = ({ info, checking, onCheck }: { info: UpdateInfo; checking: boolean; onCheck: () => Promise<UpdateInfo | undefined> }) => {
  const alert = useAlert();
  const modals = useModals();
  const { phase, failure, target, update } = useUpdateRun(info);
  const busy = isBusy(phase);
  const hasKey = Boolean(info.license_key);

  const openLicenseKey = () =>
    modals.open({ name: 'save-purchase-token', title: 'License key', maxWidth: 'xs', render: ({ close }) => <LicenseKeyModal close={close} /> });

  // No key: the latest version is unknown, so the button asks for the key instead of staying off.
  const canUpdate = info.feed_configured && !busy && (!hasKey || info.update_available);
  const showProgress = phase !== 'idle';
  const state = stateOf(info);
  const known = state.kind === 'latest' || state.kind === 'available' || state.kind === 'restart';
  const lastChecked = checkedAt(info.checked_at);

  /** Asks the feed again and says what it answered. */
  const check = async () => {
    const fresh = await onCheck();
    if (!fresh) return;
    const result = stateOf(fresh);
    if (result.kind === 'check-failed') alert.error(result.message);
    else alert.success(`Checked for updates: ${sentenceOf(result)}`);
  };

  return (
    <>
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, mb: 3 }}>
        <Box component="dl" sx={{ m: 0 }} data-testid="update-info">
          <Row label="Current version">
            <Typography data-testid="current-version">{info.current_version}</Typography>
          </Row>
          <Row label="Latest version">
            <Typography data-testid="latest-version">{known ? info.latest_version : 'Unknown'}</Typography>
          </Row>
          <Row label="License key">
            <Typography data-testid="license-key" sx={{ fontFamily: hasKey ? 'monospace' : undefined }}>
              {info.license_key ?? 'Not saved'}
            </Typography>
            <Button size="small" onClick={openLicenseKey} disabled={busy}>
              {hasKey ? 'Change license key' : 'Add license key'}
            </Button>
          </Row>
        </Box>
        {/* Once an update ran here, its progress panel below reports the outcome instead. */}
        {phase !== 'done' && (
          <Alert severity={severityOf[state.kind]} sx={{ mt: 2 }} data-testid="update-status">
            {sentenceOf(state)}
            {lastChecked && (state.kind === 'latest' || state.kind === 'available') && (
              <Typography variant="body2" component="span" sx={{ display: 'block', mt: 0.5 }}>
                Last checked {lastChecked}.
              </Typography>
            )}
          </Alert>
        )}
      </Paper>

      <Alert severity="warning" sx={{ mb: 2 }} data-testid="update-warning">
        {MESSAGES.updateWarning}
      </Alert>

      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 3 }}>
        <Button variant="contained" disabled={!canUpdate} onClick={() => (hasKey ? void update() : openLicenseKey())}>
          Update to Latest Version
        </Button>
        <Button onClick={() => void check()} disabled={busy || checking || !hasKey || !info.feed_configured}>
          {checking ? 'Checking...' : 'Check for updates'}
        </Button>
      </Box>

      {showProgress && <UpdateProgress phase={phase} failure={failure} target={target} />}
    </>
  );
};

/** App update (/admin/updates): versions, the license key, and the update with its progress. */
export const UpdatesPage = () => {
  const info = useUpdateInfo();
  return (
    <Box sx={{ py: 2, maxWidth: 860 }}>
      <AdminTitle title="App update" />
      <Typography variant="h5" component="h1">
        App update
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Updates are downloaded from the update server, checked against the vendor&apos;s signature, and installed beside the running version.
      </Typography>
      <Loaded query={info}>{(data) => <UpdatePanel info={data} checking={info.isFetching} onCheck={async () => (await info.refetch()).data} />}</Loaded>
    </Box>
  );
};
