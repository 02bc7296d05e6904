import { Suspense, lazy, useCallback } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { AlertProvider } from './shared/alerts';
import { CustomizationProvider } from './shared/customization';
import { ModalProvider } from './shared/modals';
import { ROUTES } from './shared/routes';
import { SessionProvider } from './shared/session';
import { Guard } from './creator/guard';
import { LoginPage } from './creator/auth/LoginPage';
import { RegisterPage } from './creator/auth/RegisterPage';
import { AccountVerifiedPage, EmailVerifyPage, VerifyNoticePage } from './creator/auth/VerifyPages';
import { ForgotPasswordPage, PasswordResetPage, ResendPasswordResetLinkPage } from './creator/auth/PasswordPages';
import { UserLayout } from './creator/layout/UserLayout';
import { FunnelsDashboard } from './creator/funnels/FunnelsDashboard';
import { FunnelEditorPage, FunnelPreviewPage } from './creator/funnels/FunnelPages';

// The admin panel (react-admin) is its own chunk: creators never download it.
const AdminApp = lazy(() => import('./admin/AdminApp'));
// Route-level chunks: the library (with the player and its provider adapters) and the settings and
// billing screens (with Stripe) load when first visited, not with the funnels dashboard.
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
  <BrowserRouter>
    <CustomizationProvider>
      <AlertProvider>
        <Session>
          <ModalProvider>
            <Guard>
              <Routes>
                <Route path={ROUTES.UserRegister} element={<RegisterPage />} />
                <Route path={ROUTES.UserLogin} element={<LoginPage />} />
                <Route path={ROUTES.EmailVerify} element={<EmailVerifyPage />} />
                <Route path={ROUTES.VerifyNotice} element={<VerifyNoticePage />} />
                <Route path={ROUTES.EmailVerified} element={<AccountVerifiedPage />} />
                <Route path={ROUTES.ForgotPassword} element={<ForgotPasswordPage />} />
                <Route path={ROUTES.ResendPasswordResetLink} element={<ResendPasswordResetLinkPage />} />
                <Route path={ROUTES.PasswordReset} element={<PasswordResetPage />} />
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
                  <Route path="funnels" element={<FunnelsDashboard />} />
                  <Route path="funnels/:id/edit" element={<FunnelEditorPage />} />
                  <Route path="funnels/:id" element={<FunnelPreviewPage />} />
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
);
