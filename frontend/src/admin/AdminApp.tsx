import { useTheme } from '@mui/material/styles';
import { Admin, AppBar, Layout, Resource, UserMenu, useGetIdentity, type LayoutProps } from 'react-admin';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import users from './users';
import { MailerBanner } from '../shared/MailerBanner';
import { queryClient } from '../shared/data/client';

/** The account button's accessible name is the name it shows (screen readers hear what is seen). */
const AdminUserMenu = () => {
  const { identity } = useGetIdentity();
  return <UserMenu label={identity?.fullName || 'Profile'} />;
};
const AdminAppBar = () => <AppBar userMenu={<AdminUserMenu />} />;

const AdminLayout = ({ children }: LayoutProps) => (
  <Layout appBar={AdminAppBar}>
    <MailerBanner />
    {children}
  </Layout>
);

/** The react-admin panel under /admin (lazy-loaded; the users resource for now). */
const AdminApp = () => {
  // The app's theme (from the customization), so the panel has the app's colours and contrast.
  const theme = useTheme();
  return (
    <Admin
      basename="/admin"
      theme={theme}
      queryClient={queryClient}
      dataProvider={dataProvider}
      authProvider={authProvider}
      layout={AdminLayout}
      disableTelemetry
      requireAuth={false}
    >
      <Resource name="users" {...users} />
    </Admin>
  );
};

export default AdminApp;
