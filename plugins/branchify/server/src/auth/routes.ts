import { route, USER } from '../routes/define';

export default [
  route('GET', '/auth/user', 'auth.me', { auth: USER }),
  route('POST', '/auth/register', 'auth.register', { rateLimit: { name: 'register', account: 'body.email' } }),
  // Failed sign-ins per account and address are counted by the auth service itself.
  route('POST', '/auth/login', 'auth.login', { rateLimit: { name: 'login' } }),
  route('POST', '/auth/password/change', 'auth.changePassword', { auth: USER, rateLimit: { name: 'password-change', account: 'user' } }),
  route('POST', '/auth/send-verification-email', 'auth.sendVerificationEmail', { auth: USER, rateLimit: { name: 'verification-mail', account: 'user' } }),
  // Per account and address, so nobody can use up the owner's budget; the reset mail one account
  // can be sent is bounded by its live links (auth/links.ts).
  route('POST', '/auth/password/forgot', 'auth.forgotPassword', { rateLimit: { name: 'forgot', account: 'body.email', accountPerAddress: true } }),
  route('POST', '/auth/password/reset', 'auth.resetPassword', { rateLimit: { name: 'reset', account: 'body.email', accountPerAddress: true } }),
  route('POST', '/auth/verify-email', 'auth.verifyEmail', { rateLimit: { name: 'verify-email' } }),
  route('POST', '/auth/logout', 'auth.logout'),
  route('POST', '/auth/refresh-token', 'auth.refresh', { rateLimit: { name: 'refresh' } }),
];
