import { MESSAGES } from '@branchify/shared';
import { Create } from 'react-admin';
import { useCustomization } from '../../shared/customization';
import { usePageTitle } from '../../shared/usePageTitle';
import { PlanForm } from './PlanForm';
import { usePlanMutationOptions } from './usePlanMutationOptions';

/** Create a plan (/admin/plans/create). */
export const PlanCreate = () => {
  const { customization } = useCustomization();
  usePageTitle('Create plan', customization.app_name);
  const saved = usePlanMutationOptions(MESSAGES.planCreated);
  return (
    <Create title="Create plan" mutationOptions={saved}>
      <PlanForm />
    </Create>
  );
};
