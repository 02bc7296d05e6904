import { Controller, useWatch } from 'react-hook-form';
import Alert from '@mui/material/Alert';
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
import { MESSAGES, cancelSchema, changePasswordSchema, messageTemplates, type SubscriptionResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { FormPasswordInput, FormTextArea, useApiForm } from '../../shared/form';
import { ROUTES } from '../../shared/routes';
import { useSession } from '../../shared/session';
import { formatDate } from '../../shared/format';
import { FormDialogActions } from '../../shared/FormDialogActions';

/** change-user-password: on success the modal closes and the user is logged out. */
export const ChangePasswordModal = ({ close }: { close: () => void }) => {
  const session = useSession();
  const navigate = useNavigate();
  const form = useApiForm(changePasswordSchema, { current_password: '', password: '', password_confirmation: '' });
  const change = useApiMutation({
    mutationFn: (body: unknown) => api.post('auth/password/change', body),
    onSuccess: async () => {
      close();
      // The change ended every session on the server; end this one here too.
      await session.signOut();
      navigate(ROUTES.UserLogin, { replace: true });
    },
  });
  const { control } = form;
  return (
    <Box component="form" noValidate onSubmit={(event) => void form.submit(async (body) => void (await change.mutateAsync(body)))(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <FormPasswordInput control={control} name="current_password" label="Current password" autoComplete="current-password" requiredMark autoFocus />
        <FormPasswordInput control={control} name="password" label="New password" autoComplete="new-password" requiredMark />
        <FormPasswordInput control={control} name="password_confirmation" label="Confirm new password" autoComplete="new-password" requiredMark />
      </DialogContent>
      <FormDialogActions onCancel={close} label="Change" disabled={form.submitting} />
    </Box>
  );
};

/**
 * cancel-subscription-by-user: at the end of the period or immediately; one-time (and free)
 * plans always cancel immediately.
 */
export const CancelSubscriptionModal = ({ subscription, close }: { subscription: SubscriptionResource; close: () => void }) => {
  const session = useSession();
  const onlyNow = !subscription.plan || subscription.plan.payment_schedule === 'one-time' || subscription.plan.payment_schedule === 'free';
  const form = useApiForm(cancelSchema, { period: onlyNow ? 'immediately' : 'cancel_at_period_end', cancellation_reason: '' });
  const cancel = useApiMutation({
    mutationFn: (body: unknown) => api.post(`users/subscriptions/${subscription.id}/cancel`, body),
    invalidates: [keys.billing.all],
    onSuccess: async () => {
      close();
      await session.refresh();
    },
  });
  const period = useWatch({ control: form.control, name: 'period' });
  // What the cancellation does to the user's live funnels, and when.
  const periodEnd = subscription.renews_at ? formatDate(subscription.renews_at) : null;
  const funnels = onlyNow || period === 'immediately' || !periodEnd ? MESSAGES.funnelsOfflineAtOnce : messageTemplates.funnelsOfflineAtPeriodEnd(periodEnd);
  const onSubmit = form.submit(async () => {
    const { period, cancellation_reason } = form.getValues();
    await cancel.mutateAsync({ period, cancellation_reason: cancellation_reason || null });
  });
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <DialogContent sx={{ pt: 0 }}>
        {onlyNow ? (
          <Typography>This plan ends as soon as you cancel it.</Typography>
        ) : (
          <Controller
            control={form.control}
            name="period"
            render={({ field }) => (
              <FormControl>
                <FormLabel id="cancel-period">When should the subscription end?</FormLabel>
                <RadioGroup aria-labelledby="cancel-period" name={field.name} value={field.value} onChange={(e) => field.onChange(e.target.value)}>
                  <FormControlLabel
                    value="cancel_at_period_end"
                    control={<Radio />}
                    label={`At the end of the billing period${subscription.renews_at ? ` (${formatDate(subscription.renews_at)})` : ''}`}
                  />
                  <FormControlLabel value="immediately" control={<Radio />} label="Immediately" />
                </RadioGroup>
              </FormControl>
            )}
          />
        )}
        <Alert severity="warning" sx={{ my: 2 }} data-testid="cancel-funnels-notice">
          {funnels}
        </Alert>
        <FormTextArea control={form.control} name="cancellation_reason" label="Reason (optional)" rows={3} />
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
