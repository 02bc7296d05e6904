import { useEffect, useRef, useState } from 'react';
import { SETUP_STEPS, type SetupStep } from '@branchify/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { api } from '../../shared/api';
import { useCustomization } from '../../shared/customization';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { StatusBadge } from '../../shared/inputs/StatusBadge';
import { SETUP_STATUS_KEY, useSetupStatus } from './useSetupStatus';

interface StepText {
  title: string;
  description: string;
  /** Where to do it, and where to look once it is done. */
  to: string;
  doneTo?: string;
}

const STEPS: Readonly<Record<SetupStep, StepText>> = {
  plan: {
    title: 'Create a plan',
    description:
      'People who sign up choose a plan before they can build funnels: at least one active plan they can pick, free or, once Stripe is connected, paid.',
    to: '/admin/plans/create',
    doneTo: '/admin/plans',
  },
  email: { title: 'Set up email', description: 'So users receive verification emails, password resets and alerts.', to: '/admin/integrations?tab=1' },
  stripe: { title: 'Connect Stripe', description: 'So users can pay for paid plans.', to: '/admin/integrations?tab=0' },
  branding: { title: 'Brand the app', description: 'Your app name, logo and colours.', to: '/admin/app-customization' },
};

const COLLAPSED_KEY = 'branchify.admin.setup-collapsed';

const readCollapsed = (): boolean => {
  try {
    return window.localStorage.getItem(COLLAPSED_KEY) === '1';
  } catch {
    return false;
  }
};

/** Folded or not, remembered in this browser. */
const useCollapsed = () => {
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const toggle = () => {
    setCollapsed((was) => {
      try {
        window.localStorage.setItem(COLLAPSED_KEY, was ? '0' : '1');
      } catch {
        // Private mode: folding still works for this visit.
      }
      return !was;
    });
  };
  return { collapsed, toggle };
};

/** A step: its link (to where it is done, once it is), and a tick and badge when done. */
const StepItem = ({ step, done }: { step: SetupStep; done: boolean }) => {
  const text = STEPS[step];
  return (
    <ListItem
      data-step={step}
      data-done={done}
      divider
      secondaryAction={<StatusBadge status={done ? 'active' : 'inactive'} label={done ? 'Done' : 'To do'} />}
      // Room for the badge: the description wraps before it instead of running under it.
      sx={{ pr: 11 }}
    >
      <ListItemIcon sx={{ minWidth: 40 }}>
        {done ? <CheckCircleIcon color="success" aria-hidden /> : <RadioButtonUncheckedIcon color="action" aria-hidden />}
      </ListItemIcon>
      <ListItemText
        primary={
          <Link component={RouterLink} to={done && text.doneTo ? text.doneTo : text.to} underline="hover" sx={{ fontWeight: 600 }}>
            {text.title}
          </Link>
        }
        secondary={text.description}
      />
    </ListItem>
  );
};

/**
 * The first-run setup checklist, on the panel's landing page until it is dismissed: each step
 * links to its screen and is ticked from the installation's state (read again each time the page
 * opens, and whenever a screen completes a step). It folds away to its heading and progress at any
 * time (remembered in this browser) and is dismissed for every admin once all steps are done.
 */
export const SetupChecklist = () => {
  const { data: status } = useSetupStatus();
  const { customization, loaded } = useCustomization();
  const client = useQueryClient();
  const { collapsed, toggle } = useCollapsed();
  const dismiss = useApiMutation({ mutationFn: () => api.post('admin/setup/dismiss'), invalidates: [SETUP_STATUS_KEY] });

  // Mail or branding set up elsewhere (another screen, another tab): the branding every page
  // reads (and the mail banner) is then out of date too.
  const emailDone = status?.steps.email;
  const branded = status?.steps.branding;
  const seen = useRef<{ emailDone?: boolean; branded?: boolean }>({});
  useEffect(() => {
    if (emailDone === undefined || !loaded) return;
    const before = seen.current;
    seen.current = { emailDone, branded };
    const stale =
      emailDone !== customization.mailer_configured ||
      (before.branded !== undefined && before.branded !== branded) ||
      (before.emailDone !== undefined && before.emailDone !== emailDone);
    if (stale) void client.invalidateQueries({ queryKey: keys.customization });
  }, [emailDone, branded, loaded, customization.mailer_configured, client]);

  if (!status || status.dismissed) return null;

  const doneCount = SETUP_STEPS.filter((s) => status.steps[s]).length;

  return (
    <Paper component="section" aria-labelledby="setup-checklist-title" data-testid="setup-checklist" variant="outlined" sx={{ mb: 2, mt: 1, p: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 200 }}>
          <Typography id="setup-checklist-title" component="h2" variant="h6">
            {status.complete ? 'Setup complete' : `Set up ${customization.app_name}`}
          </Typography>
          <Typography variant="body2" color="text.secondary" aria-live="polite" data-testid="setup-progress">
            {doneCount} of {SETUP_STEPS.length} steps done
          </Typography>
        </Box>
        {status.complete && (
          <Button variant="contained" onClick={() => dismiss.run()} disabled={dismiss.isPending}>
            Dismiss
          </Button>
        )}
        <Button onClick={toggle} aria-expanded={!collapsed} aria-controls="setup-checklist-steps" endIcon={collapsed ? <ExpandMoreIcon /> : <ExpandLessIcon />}>
          {collapsed ? 'Show steps' : 'Hide steps'}
        </Button>
      </Box>
      <LinearProgress variant="determinate" value={(doneCount / SETUP_STEPS.length) * 100} aria-label="Setup progress" sx={{ mt: 1.5, borderRadius: 1 }} />
      <Collapse in={!collapsed}>
        <List id="setup-checklist-steps" aria-label="Setup steps" dense>
          {SETUP_STEPS.map((step) => (
            <StepItem key={step} step={step} done={status.steps[step]} />
          ))}
        </List>
      </Collapse>
    </Paper>
  );
};
