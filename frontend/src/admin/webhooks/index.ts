import WebhookIcon from '@mui/icons-material/Webhook';
import { lazyScreen } from '../lazy-screen';

// Each screen is its own chunk, loaded when first shown.
const WebhookCreate = lazyScreen(() => import('./WebhookCreate').then((m) => m.WebhookCreate));
const WebhookEdit = lazyScreen(() => import('./WebhookEdit').then((m) => m.WebhookEdit));
const WebhookList = lazyScreen(() => import('./WebhookList').then((m) => m.WebhookList));

export default {
  list: WebhookList,
  create: WebhookCreate,
  edit: WebhookEdit,
  icon: WebhookIcon,
  options: { label: 'Webhooks' },
  recordRepresentation: (r: { url: string }) => r.url,
};
