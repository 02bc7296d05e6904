import { route, USER, type RouteOptions } from '../routes/define';

/** Every auth write signs someone in or out, or acts for an account: none is taken from another site's page. */
const write = (path: string, handler: string, options: RouteOptions = {}) => route('POST', path, handler, { ...options, sameOrigin: true });

export default [
  route('GET', '/auth/user', 'auth.me', { auth: USER }),
  write('/auth/register', 'auth.register', { rateLimit: { name: 'register', account: 'body.email' } }),
  // Failed sign-ins per account and address are counted by the auth service itself.
  write('/auth/login', 'auth.login', { rateLimit: { name: 'login' } }),
  write('/auth/password/change', 'auth.changePassword', { auth: USER, rateLimit: { name: 'password-change', account: 'user' } }),
  write('/auth/send-verification-email', 'auth.sendVerificationEmail', { auth: USER, rateLimit: { name: 'verification-mail', account: 'user' } }),
  // Per account and address, so nobody can use up the owner's budget; the reset mail one account
  // can be sent is bounded by its live links (auth/links.ts).
  write('/auth/password/forgot', 'auth.forgotPassword', { rateLimit: { name: 'forgot', account: 'body.email', accountPerAddress: true } }),
  write('/auth/password/reset', 'auth.resetPassword', { rateLimit: { name: 'reset', account: 'body.email', accountPerAddress: true } }),
  write('/auth/verify-email', 'auth.verifyEmail', { rateLimit: { name: 'verify-email' } }),
  write('/auth/logout', 'auth.logout'),
  write('/auth/refresh-token', 'auth.refresh', { rateLimit: { name: 'refresh' } }),
];
