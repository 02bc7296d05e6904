import { Suspense, lazy, useCallback } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useNavigate } from 'react-router-dom';
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

// The admin panel (react-admin) is its own chunk: creators never download it.
const AdminApp = lazy(() => import('./admin/AdminApp'));
// Route-level chunks: the public auth pages and the funnels screens (each with its forms' schemas),
// then the library (with the player and its provider adapters) and the settings and
// billing screens (with Stripe) load when first visited, not with the funnels dashboard.
const LoginPage = lazy(() => import('./creator/auth/LoginPage').then((m) => ({ default: m.LoginPage })));
const RegisterPage = lazy(() => import('./creator/auth/RegisterPage').then((m) => ({ default: m.RegisterPage })));
const EmailVerifyPage = lazy(() => import('./creator/auth/VerifyPages').then((m) => ({ default: m.EmailVerifyPage })));
const VerifyNoticePage = lazy(() => import('./creator/auth/VerifyPages').then((m) => ({ default: m.VerifyNoticePage })));
const AccountVerifiedPage = lazy(() => import('./creator/auth/VerifyPages').then((m) => ({ default: m.AccountVerifiedPage })));
const ForgotPasswordPage = lazy(() => import('./creator/auth/PasswordPages').then((m) => ({ default: m.ForgotPasswordPage })));
const ResendPasswordResetLinkPage = lazy(() => import('./creator/auth/PasswordPages').then((m) => ({ default: m.ResendPasswordResetLinkPage })));
const PasswordResetPage = lazy(() => import('./creator/auth/PasswordPages').then((m) => ({ default: m.PasswordResetPage })));
const FunnelsDashboard = lazy(() => import('./creator/funnels/FunnelsDashboard').then((m) => ({ default: m.FunnelsDashboard })));
const FunnelEditorPage = lazy(() => import('./creator/funnels/FunnelPages').then((m) => ({ default: m.FunnelEditorPage })));
const FunnelPreviewPage = lazy(() => import('./creator/funnels/FunnelPages').then((m) => ({ default: m.FunnelPreviewPage })));
const LibraryPage = lazy(() => import('./creator/library/LibraryPage').then((m) => ({ default: m.LibraryPage })));
const SettingsPage = lazy(() => import('./creator/settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const SelectPlanPage = lazy(() => import('./creator/settings/SelectPlanPage').then((m) => ({ default: m.SelectPlanPage })));
const PayInvoicePage = lazy(() => import('./creator/settings/PaymentPages').then((m) => ({ default: m.PayInvoicePage })));
const PendingSubscriptionPage = lazy(() => import('./creator/settings/PaymentPages').then((m) => ({ default: m.PendingSubscriptionPage })));

const Spinner = () => (
  <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }} role="status" aria-label="Loading">
    <CircularProgress />
  </Box>
);

/** A lazily loaded page, with the spinner while its chunk arrives. */
const Lazy = ({ children }: { children: React.ReactNode }) => <Suspense fallback={<Spinner />}>{children}</Suspense>;

const Session = ({ children }: { children: React.ReactNode }) => {
  const navigate = useNavigate();
  // 'Unauthenticated.' from the server → UserLogin.
  const onUnauthenticated = useCallback(() => navigate(ROUTES.UserLogin, { replace: true }), [navigate]);
  return <SessionProvider onUnauthenticated={onUnauthenticated}>{children}</SessionProvider>;
};

export const App = () => (
  <QueryClientProvider client={queryClient}>
    <BrowserRouter>
      <CustomizationProvider>
        <AlertProvider>
          <Session>
            <ModalProvider>
              <Guard>
                <Routes>
                  <Route
                    path={ROUTES.UserRegister}
                    element={
                      <Lazy>
                        <RegisterPage />
                      </Lazy>
                    }
                  />
                  <Route
                    path={ROUTES.UserLogin}
                    element={
                      <Lazy>
                        <LoginPage />
                      </Lazy>
                    }
                  />
                  <Route
                    path={ROUTES.EmailVerify}
                    element={
                      <Lazy>
                        <EmailVerifyPage />
                      </Lazy>
                    }
                  />
                  <Route
                    path={ROUTES.VerifyNotice}
                    element={
                      <Lazy>
                        <VerifyNoticePage />
                      </Lazy>
                    }
                  />
                  <Route
                    path={ROUTES.EmailVerified}
                    element={
                      <Lazy>
                        <AccountVerifiedPage />
                      </Lazy>
                    }
                  />
                  <Route
                    path={ROUTES.ForgotPassword}
                    element={
                      <Lazy>
                        <ForgotPasswordPage />
                      </Lazy>
                    }
                  />
                  <Route
                    path={ROUTES.ResendPasswordResetLink}
                    element={
                      <Lazy>
                        <ResendPasswordResetLinkPage />
                      </Lazy>
                    }
                  />
                  <Route
                    path={ROUTES.PasswordReset}
                    element={
                      <Lazy>
                        <PasswordResetPage />
                      </Lazy>
                    }
                  />
                  <Route
                    path={ROUTES.SelectSubscriptionPlan}
                    element={
                      <Lazy>
                        <SelectPlanPage />
                      </Lazy>
                    }
                  />
                  <Route
                    path={ROUTES.PayOutstandingInvoice}
                    element={
                      <Lazy>
                        <PayInvoicePage />
                      </Lazy>
                    }
                  />
                  <Route
                    path={ROUTES.PendingSubscription}
                    element={
                      <Lazy>
                        <PendingSubscriptionPage />
                      </Lazy>
                    }
                  />
                  <Route
                    path="/admin/*"
                    element={
                      <Lazy>
                        <AdminApp />
                      </Lazy>
                    }
                  />
                  <Route element={<UserLayout />}>
                    <Route index element={<Navigate to={ROUTES.FunnelsDashboard} replace />} />
                    <Route
                      path="funnels"
                      element={
                        <Lazy>
                          <FunnelsDashboard />
                        </Lazy>
                      }
                    />
                    <Route
                      path="funnels/:id/edit"
                      element={
                        <Lazy>
                          <FunnelEditorPage />
                        </Lazy>
                      }
                    />
                    <Route
                      path="funnels/:id"
                      element={
                        <Lazy>
                          <FunnelPreviewPage />
                        </Lazy>
                      }
                    />
                    <Route
                      path="library"
                      element={
                        <Lazy>
                          <LibraryPage />
                        </Lazy>
                      }
                    />
                    <Route
                      path="settings"
                      element={
                        <Lazy>
                          <SettingsPage />
                        </Lazy>
                      }
                    />
                    <Route path="*" element={<Navigate to={ROUTES.FunnelsDashboard} replace />} />
                  </Route>
                </Routes>
              </Guard>
            </ModalProvider>
          </Session>
        </AlertProvider>
      </CustomizationProvider>
    </BrowserRouter>
  </QueryClientProvider>
);
