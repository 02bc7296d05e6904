import type { WebhookEventType } from '@branchify/shared';

export const EVENT_LABELS: Record<WebhookEventType, string> = {
  'subscription.changed': 'Subscription changed (subscription.changed)',
  'funnel.viewed': 'Funnel viewed (funnel.viewed)',
  'funnel.completed': 'Funnel completed (funnel.completed)',
  'branch.clicked': 'Branch clicked (branch.clicked)',
};
