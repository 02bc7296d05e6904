import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import { MESSAGES, isFreePlan, type SubscriptionResource, type UserResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { useApiMutation } from '../../shared/data/mutations';
import { usePlans } from '../../shared/data/queries';
import { SelectInput } from '../../shared/inputs/SelectInput';
import { Loaded } from '../../shared/Loader';
import { BILLING_CHANGES, useLiveSubscription } from './data';
import { CurrentSubscription } from './CurrentSubscription';
import { ModalWarning, useModalFailure } from './failure';
import { planOption } from './format';
import { accountProblem, canSubmitPlan, planProblem } from './rules';

interface Fields {
  plan_id: string;
}

interface Props {
  user: Pick<UserResource, 'id' | 'is_admin'>;
  /** The subscription being changed; null to add one. */
  current: SubscriptionResource | null;
  close: () => void;
}

/**
 * add-or-change-subscription-by-admin: picks a plan ('name - price') for a user, or another plan
 * for their subscription. A plan that is not free starts waiting for the user's payment (the blue
 * note says so).
 */
export const PlanSubscriptionModal = ({ user, current: opened, close }: Props) => {
  const current = useLiveSubscription(opened);
  const plans = usePlans();
  const form = useForm<Fields>({ defaultValues: { plan_id: '' } });
  const failure = useModalFailure<Fields>(['plan_id'], form.setError);
  const save = useApiMutation({
    mutationFn: (planId: number) =>
      current
        ? api.post<SubscriptionResource>(`admin/subscriptions/${current.id}/change`, { plan_id: planId })
        : api.post<SubscriptionResource>('admin/subscriptions', { user_id: user.id, plan_id: planId, managed_by: 'platform' }),
    invalidates: BILLING_CHANGES,
    onSuccess: close,
  });

  const planId = form.watch('plan_id');
  const plan = plans.data?.find((p) => String(p.id) === planId) ?? null;
  const blocked = accountProblem({ user, current });
  const planError = planProblem({ current, plan });
  const canSubmit = canSubmitPlan({ user, current, plan });

  const onSubmit = form.handleSubmit(async ({ plan_id }) => {
    failure.clear();
    if (!canSubmit) return;
    try {
      await save.mutateAsync(Number(plan_id));
    } catch (error) {
      failure.fail(error);
    }
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <DialogContent sx={{ pt: 0 }}>
        {blocked && (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {blocked}
          </Alert>
        )}
        <ModalWarning message={failure.warning} />
        {current && <CurrentSubscription subscription={current} />}
        <PlanField
          plans={plans}
          form={form}
          label={current ? 'New Subscription Plan' : 'Subscription Plan'}
          error={planError}
          disabled={Boolean(blocked)}
          clearFailure={failure.clear}
          close={close}
        />
        {plan && !planError && !blocked && !isFreePlan(plan) && (
          <Alert severity="info" sx={{ mt: 1 }} data-testid="paid-plan-note">
            {MESSAGES.adminPaidPlanNote}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={!canSubmit || save.isPending}>
          {current ? 'Change Plan' : 'Add Plan'}
        </Button>
      </DialogActions>
    </Box>
  );
};

interface PlanFieldProps {
  plans: ReturnType<typeof usePlans>;
  form: UseFormReturn<Fields>;
  label: string;
  /** The rule the picked plan breaks, shown before the server's. */
  error: string | null;
  disabled: boolean;
  clearFailure: () => void;
  close: () => void;
}

/** The plan picker, or a link to create the first plan when there is none. */
const PlanField = ({ plans, form, label, error, disabled, clearFailure, close }: PlanFieldProps) => (
  <Loaded query={plans}>
    {(list) =>
      list.length === 0 ? (
        <Typography>
          There are no plans yet.{' '}
          <Link component={RouterLink} to="/admin/plans/create" onClick={close}>
            Create a plan
          </Link>{' '}
          first.
        </Typography>
      ) : (
        <Controller
          control={form.control}
          name="plan_id"
          render={({ field, fieldState }) => (
            <SelectInput
              name="plan_id"
              label={label}
              value={field.value}
              onChange={(value) => {
                clearFailure();
                form.clearErrors('plan_id');
                field.onChange(value);
              }}
              options={list.map((p) => ({ label: planOption(p), value: String(p.id) }))}
              error={error ?? fieldState.error?.message}
              disabled={disabled}
            />
          )}
        />
      )
    }
  </Loaded>
);
