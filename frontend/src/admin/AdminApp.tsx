import { Route } from 'react-router-dom';
import { useTheme } from '@mui/material/styles';
import { Admin, AppBar, CustomRoutes, Layout, Resource, UserMenu, useGetIdentity, type LayoutProps } from 'react-admin';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import users from './users';
import plans from './plans';
import webhooks from './webhooks';
import { AdminMenu } from './layout/AdminMenu';
import { CustomizationPage } from './customization/CustomizationPage';
import { IntegrationsPage } from './integrations/IntegrationsPage';
import { UpdatesPage } from './updates/UpdatesPage';
import { HelpPage } from './help/HelpPage';
import { SetupChecklist } from './setup/SetupChecklist';
import { MailerBanner } from '../shared/MailerBanner';
import { queryClient } from '../shared/data/client';

/** The account button's accessible name is the name it shows (screen readers hear what is seen). */
const AdminUserMenu = () => {
  const { identity } = useGetIdentity();
  return <UserMenu label={identity?.fullName || 'Profile'} />;
};
const AdminAppBar = () => <AppBar userMenu={<AdminUserMenu />} />;

const AdminLayout = ({ children }: LayoutProps) => (
  <Layout appBar={AdminAppBar} menu={AdminMenu}>
    <MailerBanner />
    <SetupChecklist />
    {children}
  </Layout>
);

/** The app bar's loading spinner is announced as 'Loading' (a progress bar needs a name). */
const LOADING_NAMED = { RaLoadingIndicator: { defaultProps: { 'aria-label': 'Loading' } } };

/** The sidebar is 270 px wide. */
const SIDEBAR = { width: 270, closedWidth: 55 };

/**
 * The react-admin panel under /admin (lazy-loaded): users and plans as resources, the settings
 * screens as custom routes, one QueryClient shared with the rest of the app.
 */
const AdminApp = () => {
  // The app's theme (from the customization), so the panel has the app's colours and contrast.
  const theme = useTheme();
  return (
    <Admin
      basename="/admin"
      theme={{ ...theme, sidebar: SIDEBAR, components: { ...theme.components, ...LOADING_NAMED } }}
      queryClient={queryClient}
      dataProvider={dataProvider}
      authProvider={authProvider}
      layout={AdminLayout}
      disableTelemetry
      requireAuth={false}
    >
      <Resource name="users" {...users} />
      <Resource name="plans" {...plans} />
      <Resource name="webhooks" {...webhooks} />
      <CustomRoutes>
        <Route path="/app-customization" element={<CustomizationPage />} />
        <Route path="/integrations" element={<IntegrationsPage />} />
        <Route path="/updates" element={<UpdatesPage />} />
        <Route path="/help" element={<HelpPage />} />
      </CustomRoutes>
    </Admin>
  );
};

export default AdminApp;
