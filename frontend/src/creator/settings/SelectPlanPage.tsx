import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router-dom';
import {
  MESSAGES,
  PROVIDER_LABELS,
  grantsAccess,
  isFreePlan,
  isVideoProvider,
  messageTemplates,
  userMayChoosePlan,
  type CardResource,
  type PlanResource,
} from '@branchify/shared';
import { api } from '../../shared/api';
import { useCustomization } from '../../shared/customization';
import { planPrice } from '../../shared/format';
import { usePaymentMethod, usePlans } from '../../shared/data/queries';
import { Loaded } from '../../shared/Loader';
import { useSession } from '../../shared/session';
import { usePageTitle } from '../../shared/usePageTitle';
import { afterLoginRoute } from '../guard';
import { PageHeader } from '../layout/UserLayout';
import { usePayments, type PaymentAnswer } from './payments';
import { EndedByAdminNotice, ResumeButton, endedByAdmin, userMayResume } from '../billing/ended';

const limits = (plan: PlanResource): string[] => [
  plan.max_funnel === null ? 'Unlimited funnels' : `${plan.max_funnel} funnel${plan.max_funnel === 1 ? '' : 's'}`,
  plan.max_branch_per_funnel === null ? 'Unlimited branches per funnel' : `${plan.max_branch_per_funnel} branches per funnel`,
  plan.video_sources === null
    ? 'All video sources'
    : plan.video_sources.map((s) => (isVideoProvider(s) ? PROVIDER_LABELS[s] : s)).join(', ') || 'No video sources',
];

/**
 * Choosing a plan: confirm it (naming the card to be charged, or asking for one), subscribe or
 * change plan, then go where the new subscription leads.
 */
const usePlanChoice = () => {
  const session = useSession();
  const navigate = useNavigate();
  const payments = usePayments();
  // No card (or payments not set up yet) is not a failure here: choosing a plan adds one.
  const card = usePaymentMethod();
  const current = session.subscription;
  const changing = grantsAccess(current) && current!.managed_by === 'platform';

  const finish = async () => {
    const fresh = await session.refresh();
    navigate(fresh ? afterLoginRoute(fresh.user, fresh.subscription) : '/', { replace: true });
  };

  const subscribe = (plan: PlanResource) => () =>
    payments.pay(
      () =>
        changing
          ? api.post<PaymentAnswer>(`users/subscriptions/${current!.id}/change`, { plan_id: plan.id, status: 'active' })
          : api.post<PaymentAnswer>('users/subscriptions', { plan_id: plan.id }),
      finish,
    );

  const choose = (plan: PlanResource, card: CardResource | null) => {
    const free = isFreePlan(plan);
    const cardInfo = free
      ? undefined
      : card
        ? `Your ${card.brand} card ending in ${card.last4} will be charged ${planPrice(plan)}.`
        : 'You will add a card to pay for this plan.';
    payments.confirm('Confirm Subscription', `${changing ? 'Change your plan to' : 'Subscribe to'} ${plan.name} (${planPrice(plan)})?`, cardInfo, () => {
      if (!free && !card) payments.openCard(() => void subscribe(plan)());
      else void subscribe(plan)();
    });
  };

  /** Whether a card is on file decides what Confirm does: wait for the answer if it is still on its way. */
  const chooseWhenCardKnown = async (plan: PlanResource) => {
    const known = card.isPending ? (await card.refetch()).data : card.data;
    choose(plan, known ?? null);
  };

  return { choose: chooseWhenCardKnown, finish, busy: payments.busy };
};

/** A plan: name, price, description and limits, with Choose (or 'Current plan'). */
const PlanCard = ({ plan, isCurrent, busy, onChoose }: { plan: PlanResource; isCurrent: boolean; busy: boolean; onChoose: () => void }) => (
  <Card data-testid="plan-card" sx={{ display: 'flex', flexDirection: 'column', outline: isCurrent ? 2 : 0, outlineColor: 'primary.main' }}>
    <CardContent sx={{ flex: 1 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="h6" component="h2">
          {plan.name}
        </Typography>
        {isCurrent && <Chip size="small" color="primary" label="Current" />}
      </Box>
      <Typography variant="h5" style={{ fontWeight: 700 }} sx={{ my: 1 }}>
        {planPrice(plan)}
      </Typography>
      {plan.description && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {plan.description}
        </Typography>
      )}
      <Box component="ul" sx={{ pl: 2, m: 0 }}>
        {limits(plan).map((l) => (
          <li key={l}>
            <Typography variant="body2">{l}</Typography>
          </li>
        ))}
      </Box>
    </CardContent>
    <CardActions>
      <Button
        fullWidth
        variant="contained"
        disabled={isCurrent || busy || !userMayChoosePlan(plan)}
        onClick={onChoose}
        aria-label={isCurrent ? `Current plan: ${plan.name}` : `Choose ${plan.name}`}
      >
        {isCurrent ? 'Current plan' : 'Choose'}
      </Button>
    </CardActions>
  </Card>
);

/** What a support link shows: the address of a mailto: link, or the page's URL. */
const supportLabel = (url: string): string => {
  if (!/^mailto:/i.test(url)) return url;
  const address = url.slice('mailto:'.length).split('?')[0];
  try {
    return decodeURIComponent(address);
  } catch {
    return address;
  }
};

/** No plan to pick: say so, and whom to ask (the branding's support address, when there is one). */
const NoPlans = () => {
  const { customization, loaded } = useCustomization();
  const support = customization.app_support_url;
  const mail = support !== null && /^mailto:/i.test(support);
  return (
    <Box data-testid="choose-plan-empty" sx={{ gridColumn: '1 / -1', overflowWrap: 'anywhere' }}>
      <Typography>{MESSAGES.noPlansAvailable}</Typography>
      {loaded && (
        <Typography sx={{ mt: 1 }} data-testid="choose-plan-support">
          {support ? (
            <>
              Contact support at{' '}
              <Link href={support} {...(mail ? {} : { target: '_blank', rel: 'noopener noreferrer' })}>
                {supportLabel(support)}
              </Link>
              .
            </>
          ) : (
            MESSAGES.noSupportAddress
          )}
        </Typography>
      )}
    </Box>
  );
};

/** SelectSubscriptionPlan (/settings/select-plan): pick a plan, confirm, pay when needed. */
export const SelectPlanPage = () => {
  const { customization } = useCustomization();
  usePageTitle('Choose a plan', customization.app_name);
  const session = useSession();
  const navigate = useNavigate();
  const plans = usePlans();
  const current = session.subscription;
  const { choose, finish, busy } = usePlanChoice();
  const logOut = async () => {
    await session.signOut();
    navigate('/login');
  };

  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', p: { xs: 2, md: 4 } }} component="main">
      <PageHeader title="Choose a plan">
        {grantsAccess(current) && <Button onClick={() => navigate(-1)}>Back</Button>}
        {!grantsAccess(current) && <Button onClick={() => void logOut()}>Logout</Button>}
      </PageHeader>
      {userMayResume(current) && (
        <Alert severity="info" sx={{ mb: 2, alignItems: 'center' }} data-testid="resume-offer" action={<ResumeButton sub={current} onResumed={finish} />}>
          {messageTemplates.resumeInstead(current.plan?.name ?? 'previous')}
        </Alert>
      )}
      {endedByAdmin(current) && <EndedByAdminNotice />}
      <Loaded query={plans}>
        {(plans) => (
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 2 }}>
            {!plans.some(userMayChoosePlan) && <NoPlans />}
            {plans.map((plan) => (
              <PlanCard
                key={plan.id}
                plan={plan}
                isCurrent={current?.plan_id === plan.id && grantsAccess(current)}
                busy={busy}
                onChoose={() => void choose(plan)}
              />
            ))}
          </Box>
        )}
      </Loaded>
    </Box>
  );
};
