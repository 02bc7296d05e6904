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
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { MESSAGES, type SubscriptionResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { useApiMutation } from '../../shared/data/mutations';
import { formatDate } from '../../shared/format';
import { FormTextArea } from '../../shared/form';
import { BILLING_CHANGES, useLiveSubscription } from './data';
import { CurrentSubscription } from './CurrentSubscription';
import { ModalWarning, useModalFailure } from './failure';
import { cancelsOnlyImmediately } from './format';

const schema = z.object({
  period: z.enum(['cancel_at_period_end', 'immediately']),
  cancellation_note: z.string().trim().min(1, { message: MESSAGES.cancellationReasonRequired }).max(2000),
});
type Values = z.input<typeof schema>;

/** What the modal knows cannot work before asking (the API answers the same if things moved since). */
const knownRefusal = (sub: SubscriptionResource): string | null => {
  if (sub.managed_by !== 'platform') return MESSAGES.cannotCancelHere;
  if (sub.status !== 'active') return MESSAGES.noActiveSubscriptionToCancel;
  return null;
};

/**
 * cancel-subscription-by-admin: a reason is required; a recurring plan ends at the end of its period
 * or immediately, a one-time (or free) plan always immediately.
 */
export const CancelSubscriptionModal = ({ subscription: opened, close }: { subscription: SubscriptionResource; close: () => void }) => {
  const subscription = useLiveSubscription(opened);
  const onlyNow = cancelsOnlyImmediately(subscription);
  const form = useForm<Values, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { period: onlyNow ? 'immediately' : 'cancel_at_period_end', cancellation_note: '' },
  });
  const failure = useModalFailure<Values>(['cancellation_note'], form.setError);
  const cancel = useApiMutation({
    mutationFn: ({ period, cancellation_note }: z.output<typeof schema>) =>
      // Both readings of the cancel call: period and cancellation_reason, cancel_at_period_end and cancellation_note.
      api.post<SubscriptionResource>(`admin/subscriptions/${subscription.id}/cancel`, {
        period,
        cancel_at_period_end: period === 'cancel_at_period_end',
        cancellation_reason: cancellation_note,
        cancellation_note,
      }),
    invalidates: BILLING_CHANGES,
    onSuccess: close,
  });
  const refusal = knownRefusal(subscription);
  const onSubmit = form.handleSubmit(async (values) => {
    failure.clear();
    try {
      await cancel.mutateAsync(values);
    } catch (error) {
      failure.fail(error);
    }
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <ModalWarning message={refusal ?? failure.warning} />
        <CurrentSubscription subscription={subscription} />
        {onlyNow ? (
          <Typography sx={{ mb: 1 }}>This plan is cancelled immediately: one-time and free plans have no billing period to run out.</Typography>
        ) : (
          <Controller
            control={form.control}
            name="period"
            render={({ field }) => (
              <FormControl sx={{ mb: 1 }}>
                <FormLabel id="admin-cancel-period">When should the subscription end?</FormLabel>
                <RadioGroup aria-labelledby="admin-cancel-period" name={field.name} value={field.value} onChange={(e) => field.onChange(e.target.value)}>
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
        <FormTextArea control={form.control} name="cancellation_note" label="Reason" rows={4} requiredMark fullWidth margin="normal" autoFocus={onlyNow} />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Keep Subscription</Button>
        <Button type="submit" variant="contained" color="error" disabled={Boolean(refusal) || cancel.isPending}>
          Cancel Subscription
        </Button>
      </DialogActions>
    </Box>
  );
};
