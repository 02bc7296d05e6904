import { useEffect } from 'react';
import { Route } from 'react-router-dom';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import MenuIcon from '@mui/icons-material/Menu';
import {
  Admin,
  AppBar,
  CustomRoutes,
  Layout,
  Resource,
  Sidebar,
  TitlePortal,
  UserMenu,
  useGetIdentity,
  useSidebarState,
  type LayoutProps,
  type SidebarProps,
} from 'react-admin';
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
import { useNarrow } from '../shared/useNarrow';

/** The account button's accessible name is the name it shows (screen readers hear what is seen). */
const AdminUserMenu = () => {
  const { identity } = useGetIdentity();
  return <UserMenu label={identity?.fullName || 'Profile'} />;
};
/** The id of the narrow screen's menu drawer, which the menu button controls. */
const MENU_ID = 'admin-menu';

/**
 * On a wide screen react-admin's own button collapses the sidebar to its icons; below the `md`
 * breakpoint that button gives way to one that opens the menu as a drawer over the page.
 */
const AdminAppBar = () => {
  const narrow = useNarrow();
  const [open, setOpen] = useSidebarState();
  return (
    <AppBar userMenu={<AdminUserMenu />} sx={narrow ? { '& .RaAppBar-menuButton': { display: 'none' } } : undefined}>
      {narrow ? (
        <IconButton color="inherit" aria-label="Open menu" aria-expanded={open} aria-controls={MENU_ID} onClick={() => setOpen(true)}>
          <MenuIcon />
        </IconButton>
      ) : null}
      <TitlePortal />
    </AppBar>
  );
};

/**
 * The menu: react-admin's sidebar on a wide screen; below `md` a drawer over the page that
 * choosing a page (react-admin's menu items close it there), Escape or a click beside it closes.
 * Its open state is react-admin's own (the menu shows its labels only when open); on a narrow
 * screen it starts closed, whatever the wide sidebar's remembered state.
 */
const AdminSidebar = (props: SidebarProps) => {
  const narrow = useNarrow();
  const [open, setOpen] = useSidebarState();
  useEffect(() => {
    if (narrow) setOpen(false);
  }, [narrow, setOpen]);
  if (!narrow) return <Sidebar {...props} />;
  return (
    <Drawer
      variant="temporary"
      open={open}
      onClose={() => setOpen(false)}
      // Mounted while closed, so the menu button's aria-controls names an element.
      ModalProps={{ keepMounted: true }}
      slotProps={{ paper: { id: MENU_ID, sx: { width: SIDEBAR.width, maxWidth: '85vw' } } }}
    >
      {props.children}
    </Drawer>
  );
};

const AdminLayout = ({ children }: LayoutProps) => (
  <Layout
    appBar={AdminAppBar}
    menu={AdminMenu}
    sidebar={AdminSidebar}
    // The page never grows wider than the screen: wide content scrolls inside its own box.
    sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}
  >
    <MailerBanner />
    <SetupChecklist />
    {children}
  </Layout>
);

/** The app bar's loading spinner is announced as 'Loading' (a progress bar needs a name). */
const LOADING_NAMED = { RaLoadingIndicator: { defaultProps: { 'aria-label': 'Loading' } } };

/**
 * Nothing makes a page wider than the screen: a list's table scrolls sideways inside its own box,
 * and a list's toolbar (filters, actions) wraps.
 */
const FIT_THE_SCREEN = {
  RaDataTable: { styleOverrides: { root: { '& .RaDataTable-tableWrapper': { overflowX: 'auto' } } } },
  RaDatagrid: { styleOverrides: { root: { '& .RaDatagrid-tableWrapper': { overflowX: 'auto' } } } },
  RaList: { styleOverrides: { root: { '& .RaList-main': { minWidth: 0 } } } },
  RaListToolbar: { styleOverrides: { root: { minWidth: 0, '& .RaFilterForm-root': { minWidth: 0, maxWidth: '100%' } } } },
  RaTopToolbar: { styleOverrides: { root: { flexWrap: 'wrap' } } },
} as const;

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
      theme={{ ...theme, sidebar: SIDEBAR, components: { ...theme.components, ...LOADING_NAMED, ...FIT_THE_SCREEN } }}
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
