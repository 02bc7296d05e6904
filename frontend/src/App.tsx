import { Suspense, lazy, useCallback, type ComponentType, type ReactNode } from 'react';
import { Navigate, Outlet, RouterProvider, createBrowserRouter, useNavigate, type RouteObject } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { AlertProvider } from './shared/alerts';
import { queryClient } from './shared/data/client';
import { CustomizationProvider } from './shared/customization';
import { ModalProvider } from './shared/modals';
import { ROUTES } from './shared/routes';
import { SessionProvider } from './shared/session';
import { Guard } from './creator/guard';
import { UserLayout } from './creator/layout/UserLayout';

const Spinner = () => (
  <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }} role="status" aria-label="Loading">
    <CircularProgress aria-label="Loading" />
  </Box>
);

/**
 * A route-level chunk: each page (and what only it imports: the admin panel, the editor, Stripe,
 * the forms' schemas) loads when first visited, with the spinner while it arrives.
 */
const page = (load: () => Promise<ComponentType>): ReactNode => {
  const Page = lazy(async () => ({ default: await load() }));
  return (
    <Suspense fallback={<Spinner />}>
      <Page />
    </Suspense>
  );
};

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
      { path: ROUTES.UserRegister, element: page(() => import('./creator/auth/RegisterPage').then((m) => m.RegisterPage)) },
      { path: ROUTES.UserLogin, element: page(() => import('./creator/auth/LoginPage').then((m) => m.LoginPage)) },
      { path: ROUTES.EmailVerify, element: page(() => import('./creator/auth/VerifyPages').then((m) => m.EmailVerifyPage)) },
      { path: ROUTES.VerifyNotice, element: page(() => import('./creator/auth/VerifyPages').then((m) => m.VerifyNoticePage)) },
      { path: ROUTES.EmailVerified, element: page(() => import('./creator/auth/VerifyPages').then((m) => m.AccountVerifiedPage)) },
      { path: ROUTES.ForgotPassword, element: page(() => import('./creator/auth/PasswordPages').then((m) => m.ForgotPasswordPage)) },
      {
        path: ROUTES.ResendPasswordResetLink,
        element: page(() => import('./creator/auth/PasswordPages').then((m) => m.ResendPasswordResetLinkPage)),
      },
      { path: ROUTES.PasswordReset, element: page(() => import('./creator/auth/PasswordPages').then((m) => m.PasswordResetPage)) },
      { path: ROUTES.SelectSubscriptionPlan, element: page(() => import('./creator/settings/SelectPlanPage').then((m) => m.SelectPlanPage)) },
      { path: ROUTES.PayOutstandingInvoice, element: page(() => import('./creator/settings/PaymentPages').then((m) => m.PayInvoicePage)) },
      { path: ROUTES.PendingSubscription, element: page(() => import('./creator/settings/PaymentPages').then((m) => m.PendingSubscriptionPage)) },
      // The admin panel (react-admin) is its own chunk: creators never download it.
      { path: '/admin/*', element: page(() => import('./admin/AdminApp').then((m) => m.default)) },
      {
        element: <UserLayout />,
        children: [
          { index: true, element: <Navigate to={ROUTES.FunnelsDashboard} replace /> },
          { path: 'funnels', element: page(() => import('./creator/funnels/FunnelsDashboard').then((m) => m.FunnelsDashboard)) },
          { path: 'funnels/:id/edit', element: page(() => import('./creator/editor/EditorPage').then((m) => m.EditorPage)) },
          { path: 'funnels/:id/analytics', element: page(() => import('./creator/analytics/AnalyticsPage').then((m) => m.AnalyticsPage)) },
          { path: 'funnels/:id', element: page(() => import('./creator/funnels/FunnelPreviewPage').then((m) => m.FunnelPreviewPage)) },
          { path: 'library', element: page(() => import('./creator/library/LibraryPage').then((m) => m.LibraryPage)) },
          { path: 'settings', element: page(() => import('./creator/settings/SettingsPage').then((m) => m.SettingsPage)) },
          { path: '*', element: <Navigate to={ROUTES.FunnelsDashboard} replace /> },
        ],
      },
    ],
  },
];

/** One data router (leaving a page with unsaved changes can be stopped), made once. */
const router = createBrowserRouter(routes);

export const App = () => (
  <QueryClientProvider client={queryClient}>
    <RouterProvider router={router} />
  </QueryClientProvider>
);
