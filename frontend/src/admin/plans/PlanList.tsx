import type { AdminPlanResource } from '@branchify/shared';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import SellIcon from '@mui/icons-material/Sell';
import { CreateButton, Datagrid, FunctionField, List, SearchInput, TextField, TopToolbar, useListContext } from 'react-admin';
import { EmptyCreateButton } from '../layout/EmptyCreateButton';
import { StatusBadge } from '../../shared/inputs/StatusBadge';
import { useCustomization } from '../../shared/customization';
import { usePageTitle } from '../../shared/usePageTitle';
import { MANAGED_BY_LABELS, SCHEDULE_LABELS, limitText, videoSourcesText } from './labels';
import { StripeWarning } from './StripeNotice';

const filters = [<SearchInput key="q" source="q" alwaysOn placeholder="Search plans" />];

const Actions = () => (
  <TopToolbar>
    <CreateButton label="Create plan" />
  </TopToolbar>
);

/** No plan yet: what plans are for, and the way to make the first one. */
const Empty = () => (
  <Box sx={{ textAlign: 'center', py: 8, px: 2, mx: 'auto', maxWidth: 520 }} data-testid="plans-empty">
    <SellIcon sx={{ fontSize: 56, color: 'text.secondary' }} aria-hidden />
    <Typography component="h2" variant="h6" sx={{ mt: 1 }}>
      No plans yet
    </Typography>
    <Typography variant="body2" color="text.secondary" sx={{ mt: 1, mb: 3 }}>
      People who sign up choose a plan before they can build funnels. Create at least one: a free plan, or a paid one billed through Stripe.
    </Typography>
    <EmptyCreateButton label="Create plan" />
  </Box>
);

/** Above the list while some paid plan cannot be paid for (Stripe not configured). */
const PaymentsWarning = () => {
  const { data } = useListContext<AdminPlanResource>();
  return data?.some((p) => !p.payment_ready) ? <StripeWarning /> : null;
};

const Price = ({ plan }: { plan: AdminPlanResource }) => (
  <>
    <span data-testid="plan-price">{plan.price_display}</span>
    {!plan.payment_ready && (
      <Typography variant="caption" color="text.secondary" component="div">
        Not offered to users until Stripe payments work
      </Typography>
    )}
  </>
);

/** Plans (/admin/plans): price as users see it, the limits (empty is unlimited), who manages it. */
export const PlanList = () => {
  const { customization } = useCustomization();
  usePageTitle('Plans', customization.app_name);
  return (
    <List
      title="Plans"
      perPage={25}
      sort={{ field: 'sort_order', order: 'ASC' }}
      filters={filters}
      actions={<Actions />}
      empty={<Empty />}
      // Read afresh on each visit: whether a plan is payable changes on the Integrations screen.
      queryOptions={{ staleTime: 0 }}
    >
      <PaymentsWarning />
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="name" label="Name" />
        <FunctionField<AdminPlanResource> label="Price" sortBy="price" render={(p) => <Price plan={p} />} />
        <FunctionField<AdminPlanResource> label="Payment schedule" sortable={false} render={(p) => SCHEDULE_LABELS[p.payment_schedule]} />
        <FunctionField<AdminPlanResource>
          label="Managed by"
          sortable={false}
          render={(p) => (p.managed_by === 'self' ? 'Self-managed' : MANAGED_BY_LABELS[p.managed_by])}
        />
        <FunctionField<AdminPlanResource> label="Max funnels" sortable={false} render={(p) => limitText(p.max_funnel)} />
        <FunctionField<AdminPlanResource> label="Max branches per funnel" sortable={false} render={(p) => limitText(p.max_branch_per_funnel)} />
        <FunctionField<AdminPlanResource> label="Video sources" sortable={false} render={(p) => videoSourcesText(p.video_sources)} />
        <FunctionField<AdminPlanResource> label="Subscriptions" sortable={false} render={(p) => p.subscriber_count} />
        <FunctionField<AdminPlanResource> label="Status" sortable={false} render={(p) => <StatusBadge status={p.is_active ? 'active' : 'inactive'} />} />
      </Datagrid>
    </List>
  );
};
