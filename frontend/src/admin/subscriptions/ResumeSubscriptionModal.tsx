import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import { MESSAGES, type SubscriptionResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { useApiMutation } from '../../shared/data/mutations';
import { BILLING_CHANGES, useLiveSubscription } from './data';
import { CurrentSubscription } from './CurrentSubscription';
import { ModalWarning, useModalFailure } from './failure';

const knownRefusal = (sub: SubscriptionResource): string | null => {
  if (sub.managed_by !== 'platform') return MESSAGES.cannotResumeHere;
  if (sub.status !== 'canceled') return MESSAGES.onlyCanceledResumable;
  return null;
};

/** resume-subscription-by-admin: a canceled subscription becomes active again at once. */
export const ResumeSubscriptionModal = ({ subscription: opened, close }: { subscription: SubscriptionResource; close: () => void }) => {
  const subscription = useLiveSubscription(opened);
  const failure = useModalFailure([]);
  const resume = useApiMutation({
    mutationFn: () => api.post<SubscriptionResource>(`admin/subscriptions/${subscription.id}/resume`),
    invalidates: BILLING_CHANGES,
    onSuccess: close,
  });
  const refusal = knownRefusal(subscription);
  return (
    <>
      <DialogContent sx={{ pt: 0 }}>
        <ModalWarning message={refusal ?? failure.warning} />
        <CurrentSubscription subscription={subscription} />
        <DialogContentText>The subscription becomes active again immediately, on the same plan.</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button
          variant="contained"
          disabled={Boolean(refusal) || resume.isPending}
          onClick={() => {
            failure.clear();
            resume.mutate(undefined, { onError: failure.fail });
          }}
        >
          Resume Subscription
        </Button>
      </DialogActions>
    </>
  );
};
