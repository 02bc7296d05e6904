import { AdminTitle } from '../layout/AdminTitle';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useCustomization } from '../../shared/customization';

interface Topic {
  title: string;
  text: string;
  links: Array<{ label: string; to: string }>;
}

/** What each admin screen is for, in the order of the sidebar. */
const TOPICS: Topic[] = [
  {
    title: 'Users',
    text: 'Create accounts (admin or not), edit names and email addresses, suspend or reactivate users, and delete accounts. A user’s page shows their subscription and invoices: add, change, cancel or resume a plan, and refund paid invoices.',
    links: [{ label: 'Open Users', to: '/admin/users' }],
  },
  {
    title: 'Plans',
    text: 'The plans users subscribe to: price, currency and payment schedule (monthly, yearly, one-time or free), and the limits on funnels, branches per funnel and video sources. Paid plans need Stripe.',
    links: [{ label: 'Open Plans', to: '/admin/plans' }],
  },
  {
    title: 'App Customizations',
    text: 'Your app’s name, description, logo, favicon and support link, its colours (with a live preview and a contrast check), and the subject and text of every email it sends.',
    links: [{ label: 'Open App Customizations', to: '/admin/app-customization' }],
  },
  {
    title: 'Integrations',
    text: 'Stripe takes card payments: save the API keys, then connect the account that receives the money. The SMTP mailer sends verification links, password resets and account notices; until it is set up those links are only written to the server log.',
    links: [
      { label: 'Stripe settings', to: '/admin/integrations?tab=0' },
      { label: 'Email settings', to: '/admin/integrations?tab=1' },
    ],
  },
  {
    title: 'Webhooks',
    text: 'Send events to your own systems: add an https endpoint and choose its events (a subscription changed, a funnel viewed or completed, a branch clicked). Each event is a JSON body signed with the endpoint’s secret (shown once, when the endpoint is added), delivered at least once and retried with growing pauses; the delivery log shows every attempt, and a failed delivery can be resent.',
    links: [
      { label: 'Open Webhooks', to: '/admin/webhooks' },
      { label: 'Add an endpoint', to: '/admin/webhooks/create' },
    ],
  },
  {
    title: 'App update',
    text: 'Shows the running and the latest version. With a license key saved, an update is downloaded, checked against the vendor’s signature and installed beside the running version; restart the application to run it.',
    links: [{ label: 'Open App update', to: '/admin/updates' }],
  },
];

/** Help (/admin/help): the admin documentation overview. */
export const HelpPage = () => {
  const { customization } = useCustomization();
  const support = customization.app_support_url;
  return (
    <Box sx={{ py: 2, maxWidth: 860 }}>
      <AdminTitle title="Help" />
      <Typography variant="h5" component="h1">
        Help
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        An overview of the admin area: what each screen is for.
      </Typography>
      {TOPICS.map((topic, index) => (
        <Paper key={topic.title} variant="outlined" component="section" aria-labelledby={`help-topic-${index}`} sx={{ p: 2.5, mb: 2 }}>
          <Typography id={`help-topic-${index}`} variant="h6" component="h2">
            {topic.title}
          </Typography>
          <Typography variant="body2" sx={{ my: 1 }}>
            {topic.text}
          </Typography>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            {topic.links.map((link) => (
              <Link key={link.to} component={RouterLink} to={link.to}>
                {link.label}
              </Link>
            ))}
          </Box>
        </Paper>
      ))}
      <Paper variant="outlined" component="section" aria-labelledby="help-operators" sx={{ p: 2.5, mb: 2 }}>
        <Typography id="help-operators" variant="h6" component="h2">
          Running the installation
        </Typography>
        <Typography variant="body2" sx={{ my: 1 }}>
          Installing, configuration (environment variables), PostgreSQL, backups and scaling are described in <code>README.md</code> and{' '}
          <code>docs/operations.md</code> in the application’s folder; the API for integrators in <code>docs/api.md</code>. API tokens for integrators are
          created in the content admin.
        </Typography>
        <Link href="/cms">Open the content admin (/cms)</Link>
      </Paper>
      {support && (
        <Typography variant="body2">
          Your users’ support link:{' '}
          <Link href={support} target="_blank" rel="noopener noreferrer">
            {support}
          </Link>
        </Typography>
      )}
    </Box>
  );
};
