import { Suspense, lazy, useCallback, type ComponentType, type ReactNode } from 'react';
import { Navigate, Outlet, RouterProvider, createBrowserRouter, matchRoutes, useNavigate, type RouteObject } from 'react-router-dom';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { AlertProvider } from './shared/alerts';
import { CustomizationProvider } from './shared/customization';
import { ModalProvider } from './shared/modals';
import { ROUTES, isPublicPath } from './shared/routes';
import { mayHaveSession } from './shared/api';
import { SessionProvider } from './shared/session';
import { Guard } from './creator/guard';
import { LoginPage } from './creator/auth/LoginPage';
import { RegisterPage } from './creator/auth/RegisterPage';

const Spinner = () => (
  <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }} role="status" aria-label="Loading">
    <CircularProgress aria-label="Loading" />
  </Box>
);

/** The data layer (react-query), loaded with the first page that fetches with it. */
const loadQueryScope = () => import('./shared/data/QueryScope').then((m) => m.QueryScope);

/**
 * A route-level chunk: each page (and what only it imports: the admin panel, the editor, Stripe,
 * the forms' schemas) loads when first visited, with the spinner while it arrives. `data` pages
 * sit in the data layer (react-query), which loads with them. The route's `handle.preload` starts
 * the download before the page renders (see `preloadCurrentRoute`).
 */
const page = (load: () => Promise<ComponentType>, { data = false }: { data?: boolean } = {}): Pick<RouteObject, 'element' | 'handle'> => {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const preload = () =>
    (loading ??= data
      ? Promise.all([loadQueryScope(), load()]).then(([Scope, Page]) => ({
          default: () => (
            <Scope>
              <Page />
            </Scope>
          ),
        }))
      : load().then((Page) => ({ default: Page })));
  const Page = lazy(preload);
  return {
    element: (
      <Suspense fallback={<Spinner />}>
        <Page />
      </Suspense>
    ),
    handle: { preload } satisfies RouteHandle,
  };
};

interface RouteHandle {
  preload: () => Promise<unknown>;
}

const Session = ({ children }: { children: ReactNode }) => {
  const navigate = useNavigate();
  // 'Unauthenticated.' from the server → UserLogin.
  const onUnauthenticated = useCallback(() => navigate(ROUTES.UserLogin, { replace: true }), [navigate]);
  return <SessionProvider onUnauthenticated={onUnauthenticated}>{children}</SessionProvider>;
};

/** What every page sits in: branding, alerts, the session, the modal host and the guard. */
const Root = () => (
  <CustomizationProvider>
    <AlertProvider>
      <Session>
        <ModalProvider>
          <Guard>
            <Outlet />
          </Guard>
        </ModalProvider>
      </Session>
    </AlertProvider>
  </CustomizationProvider>
);

const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      // The sign-in pages are part of the entry: a first visit shows them without another round trip.
      { path: ROUTES.UserRegister, element: <RegisterPage /> },
      { path: ROUTES.UserLogin, element: <LoginPage /> },
      { path: ROUTES.EmailVerify, ...page(() => import('./creator/auth/VerifyPages').then((m) => m.EmailVerifyPage)) },
      { path: ROUTES.VerifyNotice, ...page(() => import('./creator/auth/VerifyPages').then((m) => m.VerifyNoticePage)) },
      { path: ROUTES.EmailVerified, ...page(() => import('./creator/auth/VerifyPages').then((m) => m.AccountVerifiedPage)) },
      { path: ROUTES.ForgotPassword, ...page(() => import('./creator/auth/PasswordPages').then((m) => m.ForgotPasswordPage)) },
      {
        path: ROUTES.ResendPasswordResetLink,
        ...page(() => import('./creator/auth/PasswordPages').then((m) => m.ResendPasswordResetLinkPage)),
      },
      { path: ROUTES.PasswordReset, ...page(() => import('./creator/auth/PasswordPages').then((m) => m.PasswordResetPage)) },
      { path: ROUTES.SelectSubscriptionPlan, ...page(() => import('./creator/settings/SelectPlanPage').then((m) => m.SelectPlanPage), { data: true }) },
      { path: ROUTES.PayOutstandingInvoice, ...page(() => import('./creator/settings/PaymentPages').then((m) => m.PayInvoicePage), { data: true }) },
      { path: ROUTES.PendingSubscription, ...page(() => import('./creator/settings/PaymentPages').then((m) => m.PendingSubscriptionPage), { data: true }) },
      // The admin panel (react-admin) is its own chunk: creators never download it.
      { path: '/admin/*', ...page(() => import('./admin/AdminApp').then((m) => m.default), { data: true }) },
      {
        // The creator area's frame (app bar, menu drawer) is a chunk of its own: the sign-in pages never load it.
        ...page(() => import('./creator/layout/UserLayout').then((m) => m.UserLayout), { data: true }),
        children: [
          { index: true, element: <Navigate to={ROUTES.FunnelsDashboard} replace /> },
          { path: 'funnels', ...page(() => import('./creator/funnels/FunnelsDashboard').then((m) => m.FunnelsDashboard)) },
          { path: 'funnels/:id/edit', ...page(() => import('./creator/editor/EditorPage').then((m) => m.EditorPage)) },
          { path: 'funnels/:id/analytics', ...page(() => import('./creator/analytics/AnalyticsPage').then((m) => m.AnalyticsPage)) },
          { path: 'funnels/:id', ...page(() => import('./creator/funnels/FunnelPreviewPage').then((m) => m.FunnelPreviewPage)) },
          { path: 'library', ...page(() => import('./creator/library/LibraryPage').then((m) => m.LibraryPage)) },
          { path: 'settings', ...page(() => import('./creator/settings/SettingsPage').then((m) => m.SettingsPage)) },
          { path: '*', element: <Navigate to={ROUTES.FunnelsDashboard} replace /> },
        ],
      },
    ],
  },
];

/** One data router (leaving a page with unsaved changes can be stopped), made once. */
const router = createBrowserRouter(routes);

/**
 * Starts downloading the chunks of the page being opened while the session is restored (the guard
 * renders no page before), rather than after: a public page always, another one when a session may
 * exist (a signed-out visitor is sent to log in instead).
 */
const preloadCurrentRoute = (): void => {
  const path = window.location.pathname.replace(/\/+$/, '') || '/';
  if (!isPublicPath(path) && !mayHaveSession()) return;
  for (const match of matchRoutes(routes, window.location) ?? []) void (match.route.handle as RouteHandle | undefined)?.preload().catch(() => undefined);
};
preloadCurrentRoute();

export const App = () => <RouterProvider router={router} />;
