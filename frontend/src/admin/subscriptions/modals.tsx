import type { InvoiceResource, SubscriptionResource, UserResource } from '@branchify/shared';
import { useModals } from '../../shared/modals';
import { CancelSubscriptionModal } from './CancelSubscriptionModal';
import { PlanSubscriptionModal } from './PlanSubscriptionModal';
import { RefundInvoiceModal } from './RefundInvoiceModal';
import { ResumeSubscriptionModal } from './ResumeSubscriptionModal';

/** The admin's subscription modals by name. */
export const useSubscriptionModals = () => {
  const modals = useModals();
  return {
    addOrChange: (user: Pick<UserResource, 'id' | 'is_admin'>, current: SubscriptionResource | null) =>
      modals.open({
        name: 'add-or-change-subscription-by-admin',
        title: current ? 'Change Subscription Plan' : 'Add Subscription Plan',
        render: ({ close }) => <PlanSubscriptionModal user={user} current={current} close={close} />,
      }),
    cancel: (subscription: SubscriptionResource) =>
      modals.open({
        name: 'cancel-subscription-by-admin',
        title: 'Cancel Subscription',
        render: ({ close }) => <CancelSubscriptionModal subscription={subscription} close={close} />,
      }),
    resume: (subscription: SubscriptionResource) =>
      modals.open({
        name: 'resume-subscription-by-admin',
        title: 'Resume Subscription',
        maxWidth: 'xs',
        render: ({ close }) => <ResumeSubscriptionModal subscription={subscription} close={close} />,
      }),
    refund: (userId: number, invoice: InvoiceResource) =>
      modals.open({
        name: 'refund-invoice',
        title: 'Refund Invoice',
        render: ({ close }) => <RefundInvoiceModal userId={userId} invoice={invoice} close={close} />,
      }),
  };
};
