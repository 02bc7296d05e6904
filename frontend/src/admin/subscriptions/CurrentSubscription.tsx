import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { priceDisplay, type SubscriptionResource } from '@branchify/shared';
import { StatusBadge } from '../../shared/inputs/StatusBadge';
import { statusLabel, subscriptionBadge } from './format';

/** The Current Subscription panel of the change and cancel modals: plan, price and status. */
export const CurrentSubscription = ({ subscription }: { subscription: SubscriptionResource }) => (
  <Paper variant="outlined" component="section" aria-labelledby="current-subscription-title" sx={{ p: 2, mb: 2 }}>
    <Typography id="current-subscription-title" variant="subtitle2" component="h3" sx={{ mb: 1 }}>
      Current Subscription
    </Typography>
    <Box sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 0.75, alignItems: 'center' }}>
      <Typography color="text.secondary">Plan</Typography>
      <Typography>{subscription.plan?.name ?? `Plan ${subscription.plan_id}`}</Typography>
      <Typography color="text.secondary">Price</Typography>
      <Typography>{subscription.plan ? priceDisplay(subscription.plan) : '—'}</Typography>
      <Typography color="text.secondary">Status</Typography>
      <Box>
        <StatusBadge status={subscriptionBadge(subscription.status)} label={statusLabel(subscription.status)} />
      </Box>
    </Box>
  </Paper>
);
