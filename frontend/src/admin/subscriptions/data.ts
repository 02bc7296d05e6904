import { useQuery } from '@tanstack/react-query';
import type { InvoiceResource, SubscriptionResource } from '@branchify/shared';
import { api } from '../../shared/api';

/**
 * What the user page reads about billing, cached under `admin/subscriptions` so one invalidation
 * after any change (add, change, cancel, resume, refund) refreshes the panel and the invoices.
 * The users resource (react-admin's queries start with 'users') shows the subscription too.
 */
const adminBillingKeys = {
  all: ['admin', 'subscriptions'] as const,
  ofUser: (userId: number | string) => ['admin', 'subscriptions', 'user', String(userId)] as const,
  invoicesOfUser: (userId: number | string) => ['admin', 'subscriptions', 'user', String(userId), 'invoices'] as const,
};

/** Everything a subscription change makes stale. */
export const BILLING_CHANGES = [adminBillingKeys.all, ['users']] as const;

/** The user's current subscription (null when they have none). */
export const useUserSubscription = (userId: number | string | null) =>
  useQuery({
    queryKey: adminBillingKeys.ofUser(userId ?? ''),
    queryFn: async () => (await api.get<SubscriptionResource | null>(`admin/subscriptions/users/${userId}`)).data ?? null,
    enabled: userId !== null,
  });

/** Every invoice of the user, of every subscription they had, newest first. */
export const useUserInvoices = (userId: number | string | null) =>
  useQuery({
    queryKey: adminBillingKeys.invoicesOfUser(userId ?? ''),
    queryFn: async () => (await api.get<InvoiceResource[]>(`admin/subscriptions/users/${userId}/invoices`)).data,
    enabled: userId !== null,
  });

/**
 * A modal opened on a subscription shows it as it is now: the fresh copy once the page has fetched
 * one (after a refusal says the page was out of date), the copy it was opened with until then.
 */
export const useLiveSubscription = <T extends SubscriptionResource | null>(opened: T): T => {
  const live = useUserSubscription(opened?.user_id ?? null).data;
  return (live && opened && live.id === opened.id ? live : opened) as T;
};

/** The same for an invoice of the user's list. */
export const useLiveInvoice = (userId: number, opened: InvoiceResource): InvoiceResource =>
  useUserInvoices(userId).data?.find((i) => i.id === opened.id) ?? opened;
