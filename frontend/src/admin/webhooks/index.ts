import WebhookIcon from '@mui/icons-material/Webhook';
import { WebhookCreate } from './WebhookCreate';
import { WebhookEdit } from './WebhookEdit';
import { WebhookList } from './WebhookList';

export default {
  list: WebhookList,
  create: WebhookCreate,
  edit: WebhookEdit,
  icon: WebhookIcon,
  options: { label: 'Webhooks' },
  recordRepresentation: (r: { url: string }) => r.url,
};
