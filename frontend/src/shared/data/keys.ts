/**
 * Query keys, one place: a mutation invalidates by the prefix of what it changed (`keys.funnels.all`
 * refreshes every funnel list and funnel).
 */
export const keys = {
  funnels: {
    all: ['funnels'] as const,
    list: (params: { page: number; search: string }) => ['funnels', 'list', params] as const,
    one: (id: number | string) => ['funnels', 'one', String(id)] as const,
  },
  videos: {
    all: ['videos'] as const,
    list: (search: string) => ['videos', 'list', search] as const,
  },
  plans: ['plans'] as const,
  billing: {
    all: ['billing'] as const,
    paymentMethod: ['billing', 'payment-method'] as const,
    stripeIntegration: ['billing', 'stripe-integration'] as const,
    invoices: (subscriptionId: number) => ['billing', 'invoices', subscriptionId] as const,
    history: ['billing', 'invoices', 'all'] as const,
  },
  customization: ['customization'] as const,
};
