import { addVideo, createFunnel, freePlan, subscribedUser } from './support/content';
import { registerUser } from './support/users';
import { useApiSuite } from './support/suite';

/**
 * Ids sent in a body or a path are checked against the id columns' range (PostgreSQL `integer`):
 * one past it is a 422 on its field or a 404, never a query PostgreSQL fails with a 500.
 */
const suite = useApiSuite();

const PAST = [2_147_483_648, 9_999_999_999, 99_999_999_999];

it('refuses a video id past the id range in a funnel document with a 422 on that field', async () => {
  const owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
  const video = await addVideo(owner, { provider: 'generic', url: 'https://media.example.com/row-ids.mp4', title: 'Row ids' });
  const funnel = await createFunnel(owner, { title: 'Row ids' });
  for (const id of PAST) {
    const res = await owner.http.put(
      `/api/funnels/${funnel.id}`,
      {
        title: 'Row ids',
        videos: [
          { id: video.id, editor_id: 'a', elements: [] },
          { id, editor_id: 'b', elements: [] },
        ],
      },
      owner.token,
    );
    expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 422, errors: { 'videos.1.id': ['must be a video id'] } });
  }
});

it('refuses a plan or user id past the id range with a 422 naming the field', async () => {
  const user = await registerUser();
  const plan = await freePlan(suite.admin);
  for (const id of PAST) {
    const pastUser = await suite.admin.http.post('/api/admin/subscriptions', { user_id: id, plan_id: plan.id, status: 'active' }, suite.admin.token);
    expect({ status: pastUser.status, fields: Object.keys(pastUser.body.errors ?? {}) }).toEqual({ status: 422, fields: ['user_id'] });
    const pastPlan = await suite.admin.http.post('/api/admin/subscriptions', { user_id: user.id, plan_id: id, status: 'active' }, suite.admin.token);
    expect({ status: pastPlan.status, fields: Object.keys(pastPlan.body.errors ?? {}) }).toEqual({ status: 422, fields: ['plan_id'] });
  }
});

it('answers 404 for a path id past the id range, and for the largest id when no row has it', async () => {
  const owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
  for (const id of [2_147_483_647, ...PAST]) {
    expect((await owner.http.get(`/api/funnels/${id}`, owner.token)).status).toBe(404);
    expect((await owner.http.put(`/api/videos/${id}`, { title: 'Renamed' }, owner.token)).status).toBe(404);
    expect((await suite.admin.http.get(`/api/admin/users/${id}`, suite.admin.token)).status).toBe(404);
  }
});
