import { afterLoginRoute, guardRedirect } from '../../frontend/src/creator/guard-rules';
import type { SubscriptionResource, UserResource } from '@branchify/shared';

const user = (over: Partial<UserResource> = {}): UserResource =>
  ({
    id: 1,
    first_name: 'A',
    last_name: 'B',
    email: 'a@b.test',
    email_verified_at: '2026-01-01T00:00:00Z',
    is_admin: false,
    subscription_id: null,
    status: 'active',
    ...over,
  }) as UserResource;
const sub = (status: string, canceled_at: string | null = null): SubscriptionResource => ({ id: 9, status, canceled_at }) as unknown as SubscriptionResource;
const now = new Date('2026-11-23T12:00:00Z');

describe('the routing guard, in its order', () => {
  it('sends visitors on private pages to login, and leaves public pages alone', () => {
    expect(guardRedirect('/funnels', '', null)).toBe('/login');
    expect(guardRedirect('/admin/users', '', null)).toBe('/login');
    expect(guardRedirect('/login', '', null)).toBeNull();
    expect(guardRedirect('/password-reset', '?token=x&email=y', null)).toBeNull();
  });

  it('sends signed-in users on public pages to the dashboard, except the verify pages and plan choice', () => {
    expect(guardRedirect('/login', '', user())).toBe('/funnels');
    expect(guardRedirect('/register', '', user())).toBe('/funnels');
    for (const allowed of ['/email-verify', '/verify-notice', '/account-verified', '/settings/select-plan']) {
      expect(guardRedirect(allowed, '', user())).toBeNull();
    }
  });

  it('sends unverified users to the notice, or to email-verify when the link is in the query', () => {
    const unverified = user({ email_verified_at: null });
    expect(guardRedirect('/funnels', '', unverified)).toBe('/verify-notice');
    expect(guardRedirect('/funnels', '?id=1&hash=h&expires=9', unverified)).toBe('/email-verify?id=1&hash=h&expires=9');
    expect(guardRedirect('/verify-notice', '', unverified)).toBeNull();
  });

  it('keeps non-admins out of the admin area', () => {
    expect(guardRedirect('/admin/users', '', user())).toBe('/funnels');
    expect(guardRedirect('/admin/users', '', user({ is_admin: true }))).toBeNull();
  });
});

describe('where a login lands', () => {
  it('by role, verification and subscription status', () => {
    expect(afterLoginRoute(user({ is_admin: true }), null, now)).toBe('/admin/users');
    expect(afterLoginRoute(user({ email_verified_at: null }), null, now)).toBe('/verify-notice');
    expect(afterLoginRoute(user(), null, now)).toBe('/settings/select-plan');
    expect(afterLoginRoute(user(), sub('payment_required'), now)).toBe('/invoices/pay');
    expect(afterLoginRoute(user(), sub('failed_renewal'), now)).toBe('/invoices/pay');
    expect(afterLoginRoute(user(), sub('pending'), now)).toBe('/settings/subscriptions/pending');
    expect(afterLoginRoute(user(), sub('active'), now)).toBe('/funnels');
    expect(afterLoginRoute(user(), sub('canceled', '2026-12-01T00:00:00Z'), now)).toBe('/funnels');
    expect(afterLoginRoute(user(), sub('canceled', '2026-11-01T00:00:00Z'), now)).toBe('/settings/select-plan');
    expect(afterLoginRoute(user(), sub('something-else'), now)).toBe('/settings/select-plan');
  });
});
