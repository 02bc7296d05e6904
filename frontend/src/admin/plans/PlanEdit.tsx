import { MESSAGES, type AdminPlanResource } from '@branchify/shared';
import Typography from '@mui/material/Typography';
import { DeleteButton, Edit, SaveButton, Toolbar, useRecordContext } from 'react-admin';
import { useCustomization } from '../../shared/customization';
import { usePageTitle } from '../../shared/usePageTitle';
import { PlanForm } from './PlanForm';
import { usePlanMutationOptions } from './usePlanMutationOptions';

const PlanTitle = () => {
  const plan = useRecordContext<AdminPlanResource>();
  const { customization } = useCustomization();
  const title = plan ? `Plan: ${plan.name}` : 'Plan';
  usePageTitle(title, customization.app_name);
  return <span>{title}</span>;
};

/** Save, and Delete after a confirmation; the API refuses to delete a plan that has subscriptions. */
const PlanToolbar = () => {
  const plan = useRecordContext<AdminPlanResource>();
  const deleted = usePlanMutationOptions(MESSAGES.planDeleted);
  return (
    <Toolbar sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
      <SaveButton label="Save" />
      {plan && plan.subscriber_count > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1, px: 2 }}>
          {plan.subscriber_count === 1 ? '1 subscription uses' : `${plan.subscriber_count} subscriptions use`} this plan: deactivate it to hide it from new
          users.
        </Typography>
      )}
      <DeleteButton
        label="Delete"
        mutationMode="pessimistic"
        mutationOptions={deleted}
        confirmTitle={plan ? `Delete the plan ${plan.name}?` : 'Delete this plan?'}
        confirmContent="The plan is removed for good. A plan with subscriptions cannot be deleted: deactivate it instead."
      />
    </Toolbar>
  );
};

/** Edit a plan (/admin/plans/{id}); the whole record goes back on save, as react-admin sends it. */
export const PlanEdit = () => {
  const saved = usePlanMutationOptions(MESSAGES.planUpdated);
  return (
    <Edit title={<PlanTitle />} mutationMode="pessimistic" mutationOptions={saved} queryOptions={{ staleTime: 0 }}>
      <PlanForm toolbar={<PlanToolbar />} />
    </Edit>
  );
};
