import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router-dom';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { useForm } from '../../shared/forms';
import { PasswordInput, TextArea } from '../../shared/inputs';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';
import type { Subscription } from '../../shared/types';
import { formatDate } from '../../shared/format';

/** change-user-password: on success the modal closes and the user is logged out. */
export const ChangePasswordModal = ({ close }: { close: () => void }) => {
  const alert = useAlert();
  const session = useSession();
  const navigate = useNavigate();
  const form = useForm({ current_password: '', password: '', password_confirmation: '' });
  const onSubmit = form.submit(async (v) => {
    const res = await api.post('auth/password/change', v);
    alert.success(res.message ?? '');
    close();
    // The change ended every session on the server; end this one here too.
    await session.signOut();
    navigate(ROUTES.UserLogin, { replace: true });
  });
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <DialogContent sx={{ pt: 0 }}>
        <PasswordInput
          name="current_password"
          label="Current password"
          autoComplete="current-password"
          value={form.values.current_password}
          onChange={(v) => form.set('current_password', v)}
          error={form.error('current_password')}
          requiredMark
          autoFocus
        />
        <PasswordInput
          name="password"
          label="New password"
          autoComplete="new-password"
          value={form.values.password}
          onChange={(v) => form.set('password', v)}
          error={form.error('password')}
          requiredMark
        />
        <PasswordInput
          name="password_confirmation"
          label="Confirm new password"
          autoComplete="new-password"
          value={form.values.password_confirmation}
          onChange={(v) => form.set('password_confirmation', v)}
          error={form.error('password_confirmation')}
          requiredMark
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={form.submitting}>
          Change
        </Button>
      </DialogActions>
    </Box>
  );
};

/**
 * cancel-subscription-by-user: at the end of the period or immediately; one-time (and free)
 * plans always cancel immediately.
 */
export const CancelSubscriptionModal = ({ subscription, close, onDone }: { subscription: Subscription; close: () => void; onDone: () => void }) => {
  const alert = useAlert();
  const onlyNow = !subscription.plan || subscription.plan.payment_schedule === 'one-time' || subscription.plan.payment_schedule === 'free';
  const [period, setPeriod] = useState<'cancel_at_period_end' | 'immediately'>(onlyNow ? 'immediately' : 'cancel_at_period_end');
  const form = useForm({ cancellation_reason: '' });
  const onSubmit = form.submit(async (v) => {
    const res = await api.post(`users/subscriptions/${subscription.id}/cancel`, { period, cancellation_reason: v.cancellation_reason || null });
    alert.success(res.message ?? '');
    close();
    onDone();
  });
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <DialogContent sx={{ pt: 0 }}>
        {onlyNow ? (
          <Typography>This plan ends as soon as you cancel it.</Typography>
        ) : (
          <FormControl>
            <FormLabel id="cancel-period">When should the subscription end?</FormLabel>
            <RadioGroup aria-labelledby="cancel-period" value={period} onChange={(e) => setPeriod(e.target.value as typeof period)}>
              <FormControlLabel
                value="cancel_at_period_end"
                control={<Radio />}
                label={`At the end of the billing period${subscription.renews_at ? ` (${formatDate(subscription.renews_at)})` : ''}`}
              />
              <FormControlLabel value="immediately" control={<Radio />} label="Immediately" />
            </RadioGroup>
          </FormControl>
        )}
        <TextArea
          name="cancellation_reason"
          label="Reason (optional)"
          rows={3}
          value={form.values.cancellation_reason}
          onChange={(v) => form.set('cancellation_reason', v)}
          error={form.error('cancellation_reason')}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Keep subscription</Button>
        <Button type="submit" variant="contained" color="error" disabled={form.submitting}>
          Cancel subscription
        </Button>
      </DialogActions>
    </Box>
  );
};
