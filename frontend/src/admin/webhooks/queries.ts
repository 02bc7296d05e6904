import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookDeliveryResource } from '@branchify/shared';
import { api, query, type Paged } from '../../shared/api';

const deliveriesKey = (endpointId: number | string) => ['admin', 'webhooks', String(endpointId), 'deliveries'] as const;

/** GET admin/webhooks/{id}/deliveries: newest first, each with its attempts; read again every few seconds while some are pending. */
export const useDeliveries = (endpointId: number | string, page: number) =>
  useQuery({
    queryKey: [...deliveriesKey(endpointId), page],
    queryFn: async () => (await api.get<Paged<WebhookDeliveryResource>>(`admin/webhooks/${endpointId}/deliveries${query({ page, per_page: 10 })}`)).data,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'pending' || d.status === 'sending') ? 2000 : false),
  });

export const useDeliveryActions = (endpointId: number | string) => {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: deliveriesKey(endpointId) });
  return {
    resend: useMutation({
      mutationFn: (deliveryId: number) => api.post<WebhookDeliveryResource>(`admin/webhooks/deliveries/${deliveryId}/resend`),
      onSettled: refresh,
    }),
    test: useMutation({ mutationFn: () => api.post<WebhookDeliveryResource>(`admin/webhooks/${endpointId}/test`), onSettled: refresh }),
  };
};
