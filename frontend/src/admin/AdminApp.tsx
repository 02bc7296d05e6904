import { useMemo } from 'react';
import { Admin, Layout, Resource, type AuthProvider, type LayoutProps } from 'react-admin';
import { dataProvider } from './dataProvider';
import users from './users';
import { MailerBanner } from '../shared/MailerBanner';
import { useSession } from '../shared/session';
import { initials } from '../shared/format';

const AdminLayout = ({ children }: LayoutProps) => (
  <Layout>
    <MailerBanner />
    {children}
  </Layout>
);

/** The react-admin panel under /admin (lazy-loaded; the users resource for now). */
const AdminApp = () => {
  const session = useSession();
  // Our guard already admits only admins; the provider gives react-admin the identity and Logout.
  const authProvider = useMemo<AuthProvider>(
    () => ({
      login: async () => undefined,
      checkAuth: async () => undefined,
      checkError: async (error: { status?: number }) => {
        if (error?.status === 401) throw error;
      },
      logout: async () => {
        await session.signOut();
        window.location.assign('/login');
        return false;
      },
      getIdentity: async () => ({
        id: session.user?.id ?? 0,
        fullName: `${session.user?.first_name ?? ''} ${session.user?.last_name ?? ''}`.trim(),
        avatar: undefined,
        initials: initials(session.user?.first_name ?? '', session.user?.last_name ?? ''),
      }),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  return (
    <Admin basename="/admin" dataProvider={dataProvider} authProvider={authProvider} layout={AdminLayout} disableTelemetry requireAuth={false}>
      <Resource name="users" {...users} />
    </Admin>
  );
};

export default AdminApp;
