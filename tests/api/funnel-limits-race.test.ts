import { createFunnel, freePlan, subscribedUser } from './support/content';
import { openDb } from './support/db';
import { adminSession } from './support/users';

const db = openDb();
afterAll(() => db.destroy());

const LIMIT_MESSAGE = 'Please upgrade your plan to create more funnel.';
const six = <T>(make: () => Promise<T>) => Promise.all(Array.from({ length: 6 }, make));

/** A plan's funnel limit holds under parallel requests (count and insert are one step per owner). */
describe('the funnel limit under parallel requests', () => {
  it('six parallel creations on a one-funnel plan store one funnel', async () => {
    const admin = await adminSession();
    const user = await subscribedUser(admin, (await freePlan(admin, { max_funnel: 1 })).id);
    const answers = await six(() => user.http.post('/api/funnels', { title: 'Race', description: '', settings: { enable_resume_play: false } }, user.token));
    expect(answers.map((r) => r.status).filter((s) => s === 201)).toHaveLength(1);
    const refused = answers.filter((r) => r.status !== 201);
    expect(refused.every((r) => r.status === 403 && r.body.message === LIMIT_MESSAGE)).toBe(true);
    expect(await db('branchify_funnels').where({ owner_id: user.id })).toHaveLength(1);
  });

  it('six parallel duplicates on a two-funnel plan store one copy', async () => {
    const admin = await adminSession();
    const user = await subscribedUser(admin, (await freePlan(admin, { max_funnel: 2 })).id);
    const source = await createFunnel(user);
    const answers = await six(() => user.http.get(`/api/funnels/${source.id}/duplicate`, user.token));
    expect(answers.map((r) => r.status).filter((s) => s === 201)).toHaveLength(1);
    expect(await db('branchify_funnels').where({ owner_id: user.id })).toHaveLength(2);
  });
});
