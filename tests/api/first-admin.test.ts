import { startFreshInstall, type FreshInstall } from '../harness/fresh-install';

/** A fresh install of its own: the suites' shared server already has its first admin. */
describe('the first account of a fresh install', () => {
  let install: FreshInstall;
  beforeAll(async () => {
    install = await startFreshInstall();
  });
  afterAll(() => install?.stop());

  it('is the one administrator even when five people register at the same moment', async () => {
    const register = (n: number) =>
      fetch(`${install.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          first_name: `First${n}`,
          last_name: 'Comer',
          email: `first-${n}@example.test`,
          password: 'first-comer-1',
          password_confirmation: 'first-comer-1',
        }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data?: { user?: { is_admin?: boolean } } } }));
    const answers = await Promise.all([1, 2, 3, 4, 5].map(register));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(answers.filter((a) => a.body.data?.user?.is_admin)).toHaveLength(1);

    const later = await register(6);
    expect(later.body.data?.user?.is_admin).toBe(false);
  });
});
