import { Suspense, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { Route, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import MenuIcon from '@mui/icons-material/Menu';
import {
  Admin,
  AppBar,
  CustomRoutes,
  Layout,
  Loading,
  Resource,
  Sidebar,
  TitlePortal,
  UserMenu,
  useGetIdentity,
  useSidebarState,
  useStore,
  type LayoutProps,
  type SidebarProps,
} from 'react-admin';
import { IDENTITY_KEY, authProvider, identityOf } from './authProvider';
import { dataProvider } from './dataProvider';
import users from './users';
import plans from './plans';
import webhooks from './webhooks';
import { AdminMenu } from './layout/AdminMenu';
import { WIDE_SIDEBAR_OPEN, panelStore } from './layout/panelStore';
import { SetupChecklist } from './setup/SetupChecklist';
import { useSetupStatus } from './setup/useSetupStatus';
import { lazyScreen } from './lazy-screen';
import { MailerBanner } from '../shared/MailerBanner';
import { useCustomization } from '../shared/customization';
import { queryClient } from '../shared/data/client';
import { useNarrow } from '../shared/useNarrow';
import { useSession } from '../shared/session';

// The settings screens load when first opened.
const CustomizationPage = lazyScreen(() => import('./customization/CustomizationPage').then((m) => m.CustomizationPage));
const IntegrationsPage = lazyScreen(() => import('./integrations/IntegrationsPage').then((m) => m.IntegrationsPage));
const UpdatesPage = lazyScreen(() => import('./updates/UpdatesPage').then((m) => m.UpdatesPage));
const HelpPage = lazyScreen(() => import('./help/HelpPage').then((m) => m.HelpPage));

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
 * Its open state is react-admin's own (the menu shows its labels only when open): on a narrow
 * screen the drawer's, starting closed; on a wide one the wide sidebar's remembered state
 * (see panelStore), put back whenever the screen becomes wide again.
 */
const AdminSidebar = (props: SidebarProps) => {
  const narrow = useNarrow();
  const [open, setOpen] = useSidebarState();
  const [wideOpen] = useStore(WIDE_SIDEBAR_OPEN, true);
  const layout = narrow ? 'narrow' : 'wide';
  // The layout the open state was last set for: a drawer appearing with the wide sidebar's state
  // stays closed (it does not even start to open).
  const [laidOut, setLaidOut] = useState<'narrow' | 'wide' | null>(null);
  useLayoutEffect(() => {
    if (laidOut === layout) return;
    setLaidOut(layout);
    setOpen(layout === 'narrow' ? false : wideOpen !== false);
  }, [layout, laidOut, wideOpen, setOpen]);
  if (!narrow) return <Sidebar {...props} />;
  return (
    <Drawer
      variant="temporary"
      open={open && laidOut === 'narrow'}
      onClose={() => setOpen(false)}
      // Mounted while closed, so the menu button's aria-controls names an element.
      ModalProps={{ keepMounted: true }}
      slotProps={{ paper: { id: MENU_ID, sx: { width: SIDEBAR.width, maxWidth: '85vw' } } }}
    >
      {props.children}
    </Drawer>
  );
};

/** The panel's landing page: its root, which redirects to the users list, and that list. */
const LANDING = /^\/admin(\/users)?\/?$/;
const useOnLanding = () => LANDING.test(useLocation().pathname);

/** The setup checklist shows on the landing page only, not above every screen. */
const LandingChecklist = () => (useOnLanding() ? <SetupChecklist /> : null);

/**
 * The screen stays invisible (while it loads its data) until the mail banner and, on the landing
 * page, the setup checklist above it are known, so it does not jump down when they arrive. Only
 * this box re-renders when they do, not the whole layout.
 */
const ScreenBox = ({ children }: { children: ReactNode }) => {
  const { loaded } = useCustomization();
  // Read on every screen, so what completes a step (a plan, the mailer, Stripe) refreshes it at once.
  const setup = useSetupStatus();
  const landing = useOnLanding();
  const settled = loaded && (!landing || !setup.isPending);
  return <Box sx={{ display: 'contents', visibility: settled ? undefined : 'hidden' }}>{children}</Box>;
};

/**
 * Room below the content for the floating create button of a narrow screen (56 px, 60 px above
 * the bottom edge): scrolled to the end, nothing stays under it.
 */
const FAB_CLEARANCE = 60 + 56 + 16;

/**
 * The page never grows wider than the screen: wide content scrolls inside its own box. A page
 * with a floating create button leaves room for it below its content.
 */
const LAYOUT_SX = {
  minWidth: 0,
  '& .RaLayout-content': { minWidth: 0 },
  '& .RaLayout-content:has(.RaCreateButton-floating)': { paddingBottom: `${FAB_CLEARANCE}px` },
} as const;

const AdminLayout = ({ children }: LayoutProps) => (
  <Layout appBar={AdminAppBar} menu={AdminMenu} sidebar={AdminSidebar} sx={LAYOUT_SX}>
    <MailerBanner />
    <LandingChecklist />
    <ScreenBox>
      {/* A screen still loading leaves the banner and the checklist in place (react-admin's own
          boundary, around all three, would replace them and mount them again). */}
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </ScreenBox>
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
  // Made once per app theme: react-admin creates its theme again whenever this object changes, and a
  // new theme restyles every component of the panel.
  const adminTheme = useMemo(() => ({ ...theme, sidebar: SIDEBAR, components: { ...theme.components, ...LOADING_NAMED, ...FIT_THE_SCREEN } }), [theme]);
  // Made once: the store react-admin keeps its state in (the sidebar's open state apart, see panelStore).
  const [store] = useState(() => panelStore(theme.breakpoints.down('md').replace(/^@media\s*/, '')));
  // The signed-in user is known already: the account button shows their name on the first render
  // instead of asking the server again and rendering the panel once more when it answers.
  const { user } = useSession();
  useState(() => {
    if (user && queryClient.getQueryData(IDENTITY_KEY) === undefined) queryClient.setQueryData(IDENTITY_KEY, identityOf(user));
  });
  return (
    <Admin
      basename="/admin"
      theme={adminTheme}
      queryClient={queryClient}
      dataProvider={dataProvider}
      authProvider={authProvider}
      layout={AdminLayout}
      store={store}
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
