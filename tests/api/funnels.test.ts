import type { Knex } from 'knex';
import { openDb } from './support/db';
import { client } from './support/http';
import { addVideo, branchElement, createFunnel, freePlan, subscribedUser, textElement, twoVideoDocument } from './support/content';
import { adminSession, verifiedUser, type Session } from './support/users';

let db: Knex;
let admin: Session;
let user: Session;

beforeAll(async () => {
  db = openDb();
  admin = await adminSession();
  user = await subscribedUser(admin, (await freePlan(admin)).id);
});
afterAll(() => db.destroy());

describe('POST /api/funnels', () => {
  it("creates a funnel with a random public identifier: 'Funnel saved successfully'", async () => {
    const res = await user.http.post('/api/funnels', { title: '  Webinar  ', description: 'Signup flow', settings: { enable_resume_play: true } }, user.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Funnel saved successfully' });
    expect(res.body.data).toMatchObject({
      title: 'Webinar',
      description: 'Signup flow',
      settings: { enable_resume_play: true },
      videos: [],
      last_view_state: null,
    });
    expect(res.body.data.identifier).toMatch(/^[A-Za-z0-9]{24}$/);
    const second = await createFunnel(user);
    expect(second.identifier).not.toBe(res.body.data.identifier);
    expect(await db('branchify_funnels').where({ id: res.body.data.id }).first()).toMatchObject({ owner_id: user.id, identifier: res.body.data.identifier });
  });

  it('validates title and settings', async () => {
    const res = await user.http.post('/api/funnels', { title: '', settings: { enable_resume_play: 'yes' } }, user.token);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ title: ['The title field is required.'], 'settings.enable_resume_play': ['must be true or false'] });
  });

  it("stops at max_funnel with the spec's message; no subscription and no active plan have their own", async () => {
    const limited = await subscribedUser(admin, (await freePlan(admin, { max_funnel: 1 })).id);
    await createFunnel(limited);
    const over = await limited.http.post('/api/funnels', { title: 'Second' }, limited.token);
    expect(over.status).toBe(403);
    expect(over.body).toEqual({ success: false, message: 'Please upgrade your plan to create more funnel.' });
    const funnels = await limited.http.get('/api/funnels', limited.token);
    const duplicate = await limited.http.get(`/api/funnels/${funnels.body.data.data[0].id}/duplicate`, limited.token);
    expect(duplicate.status).toBe(403);
    expect(await db('branchify_funnels').where({ owner_id: limited.id })).toHaveLength(1);

    const none = await verifiedUser();
    expect((await none.http.post('/api/funnels', { title: 'x' }, none.token)).body.message).toBe('No subscription found for this user. Please choose a plan.');

    const cancelled = await subscribedUser(admin, (await freePlan(admin)).id);
    const sub = (await admin.http.get(`/api/admin/subscriptions/users/${cancelled.id}`, admin.token)).body.data;
    await db('branchify_subscriptions')
      .where({ id: sub.id })
      .update({ status: 'canceled', canceled_at: new Date(Date.now() - 86_400_000) });
    expect((await cancelled.http.post('/api/funnels', { title: 'x' }, cancelled.token)).body.message).toBe(
      "You don't have any active plan. Please choose a plan.",
    );
  });

  it('lets admins past every limit', async () => {
    expect((await admin.http.post('/api/funnels', { title: 'Admin funnel' }, admin.token)).status).toBe(201);
  });
});

describe('PUT /api/funnels/{id}', () => {
  it("saves the whole funnel and reads it back: 'Funnel saved successfully'", async () => {
    const a = await addVideo(user, { title: 'Intro' });
    const b = await addVideo(user, { title: 'Second' });
    const funnel = await createFunnel(user);
    const res = await user.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id), user.token);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Funnel saved successfully');
    const shown = await user.http.get(`/api/funnels/${funnel.id}`, user.token);
    expect(shown.body.data.videos.map((v: { editor_id: string }) => v.editor_id)).toEqual(['intro', 'second']);
    expect(shown.body.data.videos[0].video).toMatchObject({ id: a.id, title: 'Intro', provider: 'youtube' });
    const branch = shown.body.data.videos[0].elements[0];
    // The documented defaults are filled in.
    expect(branch.data.settings).toMatchObject({ inaction: 'skip-and-continue', animation: 'none', pauseVideo: { enabled: true, duration: 12 } });
    expect(branch.data.branches[0]).toMatchObject({ onclick: 'branch', video: 'second', standard: { fontSize: 1.5, text: 'Go on' } });
    expect(shown.body.data.videos[0].elements[1].data).toMatchObject({
      name: 'text',
      fontSize: 2,
      fontFamily: 'Abel',
      fontThickness: 'regular',
      title: 'Hello <b>viewer</b>',
    });
    expect(shown.body.data.version).toBe(2);
  });

  it('updates only title, description and settings when no videos are sent', async () => {
    const a = await addVideo(user);
    const b = await addVideo(user);
    const funnel = await createFunnel(user);
    await user.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id), user.token);
    const res = await user.http.put(`/api/funnels/${funnel.id}`, { title: 'Renamed', description: '', settings: { enable_resume_play: false } }, user.token);
    expect(res.body).toMatchObject({ message: 'Funnel updated successfully', data: { title: 'Renamed', settings: { enable_resume_play: false } } });
    expect(res.body.data.videos).toHaveLength(2);
  });

  it('answers 422 keyed by the path of each bad field', async () => {
    const a = await addVideo(user);
    const funnel = await createFunnel(user);
    const doc = {
      title: 'Bad',
      videos: [
        {
          id: a.id,
          editor_id: 'one',
          elements: [
            { id: 'e1', type: 'html', data: {} },
            { id: 'e2', type: 'text', showAt: 9, hideAt: 2, data: { fontSize: 7 } },
            branchElement('e3', 'one', 'missing', {
              settings: { pauseVideo: { enabled: true, duration: 3 }, border: { enabled: true, size: 16 }, animation: 'spin', inaction: 'not-a-branch' },
            }),
            {
              ...branchElement('e4', 'one', null),
              data: {
                branches: [{ id: 'x', onclick: 'url', externalLink: 'javascript:alert(1)', image: { source: 'http://insecure.example/a.png' } }],
                overlay: { color: { opacity: 1.5 } },
              },
            },
          ],
        },
      ],
    };
    const res = await user.http.put(`/api/funnels/${funnel.id}`, doc, user.token);
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.errors).toMatchObject({
      'videos.0.elements.0.type': ["must be 'text' or 'branch'"],
      'videos.0.elements.1.data.fontSize': ['must be one of: 0.625, 0.75, 1, 1.25, 1.5, 2, 2.5, 3'],
      'videos.0.elements.2.data.settings.pauseVideo.duration': ['must be at least 10'],
      'videos.0.elements.2.data.settings.border.size': ['must be at most 15'],
      'videos.0.elements.3.data.branches.0.externalLink': ['invalid url'],
      'videos.0.elements.3.data.branches.0.image.source': ['must be an uploaded image or an https:// URL'],
      'videos.0.elements.3.data.overlay.color.opacity': ['must be at most 1'],
    });
    expect(Object.keys(res.body.errors)).toContain('videos.0.elements.2.data.settings.animation');
    // Nothing was saved.
    expect((await user.http.get(`/api/funnels/${funnel.id}`, user.token)).body.data.videos).toEqual([]);
  });

  it('checks the cross-references: showAt ≤ hideAt, branch targets and inaction in the funnel', async () => {
    const a = await addVideo(user);
    const funnel = await createFunnel(user);
    const res = await user.http.put(
      `/api/funnels/${funnel.id}`,
      {
        title: 'Refs',
        videos: [
          {
            id: a.id,
            editor_id: 'one',
            elements: [
              { ...textElement('t', 'one'), showAt: 9, hideAt: 2 },
              branchElement('b', 'one', 'nowhere', { settings: { inaction: 'no-such-branch' } }),
            ],
          },
        ],
      },
      user.token,
    );
    expect(res.body.errors).toEqual({
      'videos.0.elements.0.showAt': ['must not be after hideAt'],
      'videos.0.elements.1.data.branches.0.video': ['must be a video of this funnel'],
      'videos.0.elements.1.data.settings.inaction': ["must be 'skip-and-continue', an http(s) URL or one of this element's branches"],
    });
  });

  it("refuses another user's library video in my funnel", async () => {
    const other = await subscribedUser(admin, (await freePlan(admin)).id);
    const theirs = await addVideo(other);
    const mine = await addVideo(user);
    const funnel = await createFunnel(user);
    const res = await user.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(mine.id, theirs.id), user.token);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'videos.1.id': ['This video is not in your library.'] });
  });

  it('checks max_branch_per_funnel on save', async () => {
    const limited = await subscribedUser(admin, (await freePlan(admin, { max_branch_per_funnel: 1 })).id);
    const a = await addVideo(limited);
    const b = await addVideo(limited);
    const funnel = await createFunnel(limited);
    expect((await limited.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id), limited.token)).status).toBe(200);
    const doc = twoVideoDocument(a.id, b.id);
    doc.videos[1]!.elements.push(branchElement('el-3', 'second', 'intro') as never);
    const over = await limited.http.put(`/api/funnels/${funnel.id}`, doc, limited.token);
    expect(over.status).toBe(403);
    expect(over.body.message).toBe('Please upgrade your plan to create more funnel.');
  });
});

describe('funnel list, duplicate, delete and tenancy', () => {
  it('lists my funnels paged and searchable', async () => {
    const me = await subscribedUser(admin, (await freePlan(admin)).id);
    await createFunnel(me, { title: 'Alpha' });
    await createFunnel(me, { title: 'Beta' });
    const list = await me.http.get('/api/funnels?page=1', me.token);
    expect(list.body.data.meta).toMatchObject({ total: 2, current_page: 1, last_page: 1 });
    expect(list.body.data.data.map((f: { title: string }) => f.title)).toEqual(['Beta', 'Alpha']);
    expect((await me.http.get('/api/funnels?search=alp', me.token)).body.data.data.map((f: { title: string }) => f.title)).toEqual(['Alpha']);
  });

  it('duplicates with a new identifier and the same videos', async () => {
    const a = await addVideo(user);
    const b = await addVideo(user);
    const funnel = await createFunnel(user, { title: 'Original' });
    await user.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id, 'Original'), user.token);
    const copy = await user.http.get(`/api/funnels/${funnel.id}/duplicate`, user.token);
    expect(copy.status).toBe(201);
    expect(copy.body.data).toMatchObject({ title: 'Original (copy)' });
    expect(copy.body.data.identifier).not.toBe(funnel.identifier);
    expect(copy.body.data.videos.map((v: { editor_id: string }) => v.editor_id)).toEqual(['intro', 'second']);
    const videos = await user.http.get('/api/videos?per_page=100', user.token);
    expect(videos.body.data.data.find((v: { id: number }) => v.id === a.id).total_funnels).toBe(2);
  });

  it("deletes a funnel with its views; another tenant's funnel is a 404 everywhere", async () => {
    const other = await subscribedUser(admin, (await freePlan(admin)).id);
    const theirs = await createFunnel(other);
    for (const res of [
      await user.http.get(`/api/funnels/${theirs.id}`, user.token),
      await user.http.put(`/api/funnels/${theirs.id}`, { title: 'Stolen' }, user.token),
      await user.http.get(`/api/funnels/${theirs.id}/duplicate`, user.token),
      await user.http.delete(`/api/funnels/${theirs.id}`, user.token),
      await user.http.post(`/api/funnels/${theirs.id}/analytics`, {}, user.token),
    ]) {
      expect(res.status).toBe(404);
    }
    expect(await db('branchify_funnels').where({ id: theirs.id }).first()).toMatchObject({ title: 'My funnel' });

    const mine = await createFunnel(user);
    const res = await user.http.delete(`/api/funnels/${mine.id}`, user.token);
    expect(res.body).toEqual({ success: true, message: 'Funnel deleted successfully', data: null });
    expect(await db('branchify_funnels').where({ id: mine.id }).first()).toBeUndefined();
    expect((await client().get(`/api/funnels/${mine.identifier}/player`)).status).toBe(404);
  });

  it('needs a signed-in user', async () => {
    expect((await client().get('/api/funnels')).status).toBe(401);
  });
});
