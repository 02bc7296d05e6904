import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type {
  CardResource,
  FunnelResource,
  FunnelSummaryResource,
  InvoiceResource,
  PlanResource,
  StripeIntegrationResource,
  VideoResource,
} from '@branchify/shared';
import { api, query, type Paged } from '../api';
import { keys } from './keys';

/** The data the creator screens read, each through the one API client and cached by its key. */

export const useFunnelList = (params: { page: number; search: string }) =>
  useQuery({
    queryKey: keys.funnels.list(params),
    queryFn: async () => (await api.get<Paged<FunnelSummaryResource>>(`funnels${query(params)}`)).data,
    // The old page stays on screen while the next one (or a new search) loads.
    placeholderData: keepPreviousData,
  });

export const useFunnel = (id: number | string | undefined) =>
  useQuery({
    queryKey: keys.funnels.one(id ?? ''),
    queryFn: async () => (await api.get<FunnelResource>(`funnels/${id}`)).data,
    enabled: id !== undefined && id !== '',
  });

/** The library, page by page (infinite scroll); stops after meta.last_page. */
export const useVideoPages = (search: string) =>
  useInfiniteQuery({
    queryKey: keys.videos.list(search),
    queryFn: async ({ pageParam }) => (await api.get<Paged<VideoResource>>(`videos${query({ page: pageParam, search })}`)).data,
    initialPageParam: 1,
    getNextPageParam: (last) => (last.meta.current_page < last.meta.last_page ? last.meta.current_page + 1 : undefined),
  });

export const usePlans = () => useQuery({ queryKey: keys.plans, queryFn: async () => (await api.get<PlanResource[]>('plans')).data });

/** The card on file; null when there is none (or payments are not set up). */
export const usePaymentMethod = (enabled = true) =>
  useQuery({
    queryKey: keys.billing.paymentMethod,
    queryFn: async () => (await api.get<CardResource | null>('payment-method')).data ?? null,
    enabled,
  });

export const useStripeIntegration = () =>
  useQuery({
    queryKey: keys.billing.stripeIntegration,
    queryFn: async () => (await api.get<StripeIntegrationResource>('users/subscriptions/stripe-integration')).data,
  });

/** Every invoice of the signed-in user, of every subscription they had, newest first. */
export const useInvoiceHistory = () =>
  useQuery({
    queryKey: keys.billing.history,
    queryFn: async () => (await api.get<InvoiceResource[]>('users/invoices')).data,
  });

export const useInvoices = (subscriptionId: number | null | undefined) =>
  useQuery({
    queryKey: keys.billing.invoices(subscriptionId ?? 0),
    queryFn: async () => (await api.get<InvoiceResource[]>(`users/subscriptions/${subscriptionId}/invoices`)).data,
    enabled: Boolean(subscriptionId),
  });
