import { client } from './support/http';
import { addVideo, branchElement, createFunnel, freePlan, subscribedUser, textElement, twoVideoDocument } from './support/content';
import { verifiedUser, type Session } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();
let user: Session;

beforeAll(async () => {
  user = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
});

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
    expect(await suite.db('branchify_funnels').where({ id: res.body.data.id }).first()).toMatchObject({
      owner_id: user.id,
      identifier: res.body.data.identifier,
    });
  });

  it('validates title and settings', async () => {
    const res = await user.http.post('/api/funnels', { title: '', settings: { enable_resume_play: 'yes' } }, user.token);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ title: ['The title field is required.'], 'settings.enable_resume_play': ['must be true or false'] });
  });

  it("stops at max_funnel with the spec's message; no subscription and no active plan have their own", async () => {
    const limited = await subscribedUser(suite.admin, (await freePlan(suite.admin, { max_funnel: 1 })).id);
    await createFunnel(limited);
    const over = await limited.http.post('/api/funnels', { title: 'Second' }, limited.token);
    expect(over.status).toBe(403);
    expect(over.body).toEqual({ success: false, message: 'Please upgrade your plan to create more funnel.' });
    const funnels = await limited.http.get('/api/funnels', limited.token);
    const duplicate = await limited.http.get(`/api/funnels/${funnels.body.data.data[0].id}/duplicate`, limited.token);
    expect(duplicate.status).toBe(403);
    expect(await suite.db('branchify_funnels').where({ owner_id: limited.id })).toHaveLength(1);

    const none = await verifiedUser();
    expect((await none.http.post('/api/funnels', { title: 'x' }, none.token)).body.message).toBe('No subscription found for this user. Please choose a plan.');

    const cancelled = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const sub = (await suite.admin.http.get(`/api/admin/subscriptions/users/${cancelled.id}`, suite.admin.token)).body.data;
    await suite
      .db('branchify_subscriptions')
      .where({ id: sub.id })
      .update({ status: 'canceled', canceled_at: new Date(Date.now() - 86_400_000) });
    expect((await cancelled.http.post('/api/funnels', { title: 'x' }, cancelled.token)).body.message).toBe(
      "You don't have any active plan. Please choose a plan.",
    );
  });

  it('lets admins past every limit', async () => {
    expect((await suite.admin.http.post('/api/funnels', { title: 'Admin funnel' }, suite.admin.token)).status).toBe(201);
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

  it('stores where each video sits on the funnel map, bounded, and gives it back', async () => {
    const a = await addVideo(user, { title: 'Intro' });
    const b = await addVideo(user, { title: 'Second' });
    const funnel = await createFunnel(user);
    const doc = twoVideoDocument(a.id, b.id);
    const placed = { ...doc, videos: [{ ...doc.videos[0], map: { x: -40.5, y: 320 } }, doc.videos[1]] };
    expect((await user.http.put(`/api/funnels/${funnel.id}`, placed, user.token)).status).toBe(200);
    const shown = (await user.http.get(`/api/funnels/${funnel.id}`, user.token)).body.data;
    expect(shown.videos[0].map).toEqual({ x: -40.5, y: 320 });
    // A video without a stored place has none (the map lays it out).
    expect(shown.videos[1]).not.toHaveProperty('map');
    const far = { ...doc, videos: [{ ...doc.videos[0], map: { x: 2e6, y: 'top' } }, doc.videos[1]] };
    const res = await user.http.put(`/api/funnels/${funnel.id}`, far, user.token);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(['videos.0.map.x', 'videos.0.map.y']));
    const exported = await user.http.get(`/api/funnels/${funnel.id}/export`, user.token);
    expect(exported.status).toBe(200);
    expect(exported.body.funnel.videos[0].map).toEqual({ x: -40.5, y: 320 });
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
    const other = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const theirs = await addVideo(other);
    const mine = await addVideo(user);
    const funnel = await createFunnel(user);
    const res = await user.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(mine.id, theirs.id), user.token);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'videos.1.id': ['This video is not in your library.'] });
  });

  it('refuses a font outside the catalogue with 422 at that field, and stores nothing', async () => {
    const a = await addVideo(user);
    const funnel = await createFunnel(user);
    const doc = {
      title: 'Fonts',
      videos: [
        {
          id: a.id,
          editor_id: 'one',
          elements: [
            { ...textElement('t1', 'one'), data: { title: 'Hi', fontFamily: 'Comic Sans MS' } },
            { ...textElement('t2', 'one'), data: { title: 'Fine', fontFamily: 'Open Sans' } },
            branchElement('b1', 'one', null, { prompt: { text: 'Pick', fontFamily: 'https://fonts.example/evil.css' } }),
            { ...branchElement('b2', 'one', null), data: { branches: [{ id: 'x', onclick: 'timestamp', standard: { font: 'roboto' } }] } },
          ],
        },
      ],
    };
    const res = await user.http.put(`/api/funnels/${funnel.id}`, doc, user.token);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual([
      'videos.0.elements.0.data.fontFamily',
      'videos.0.elements.2.data.prompt.fontFamily',
      'videos.0.elements.3.data.branches.0.standard.font',
    ]);
    expect(res.body.errors['videos.0.elements.0.data.fontFamily'][0]).toMatch(/^must be one of: Abel, Roboto, Open Sans, /);
    expect((await user.http.get(`/api/funnels/${funnel.id}`, user.token)).body.data.videos).toEqual([]);
  });
});

describe('element limits on save (max_branch_per_funnel)', () => {
  const BRANCH_LIMIT =
    'You have reached the maximum number of branches allowed per funnel in your current plan. To add more branches, please upgrade to a higher tier plan with increased limits.';
  const TEXT_LIMIT =
    'You have reached the maximum number of elements allowed per funnel in your current plan. To add more text elements, please upgrade to a higher tier plan with increased limits.';

  /** A two-video funnel document with `branches` branch elements and `texts` text elements, spread over both videos. */
  const documentWith = (a: number, b: number, branches: number, texts: number) => {
    const on = (i: number) => (i % 2 === 0 ? 'intro' : 'second');
    const elements = (editorId: string) => [
      ...Array.from({ length: branches }, (_, i) => i)
        .filter((i) => on(i) === editorId)
        .map((i) => branchElement(`br-${i}`, editorId, editorId === 'intro' ? 'second' : 'intro')),
      ...Array.from({ length: texts }, (_, i) => i)
        .filter((i) => on(i) === editorId)
        .map((i) => textElement(`tx-${i}`, editorId)),
    ];
    return {
      title: `${branches} branches, ${texts} texts`,
      videos: [
        { id: a, editor_id: 'intro', elements: elements('intro') },
        { id: b, editor_id: 'second', elements: elements('second') },
      ],
    };
  };

  const setUp = async (limit: number | null, who?: Session) => {
    const owner = who ?? (await subscribedUser(suite.admin, (await freePlan(suite.admin, { max_branch_per_funnel: limit })).id));
    const [a, b] = [await addVideo(owner), await addVideo(owner)];
    const funnel = await createFunnel(owner);
    const save = (branches: number, texts: number) => owner.http.put(`/api/funnels/${funnel.id}`, documentWith(a.id, b.id, branches, texts), owner.token);
    const stored = async () => (await suite.db('branchify_funnels').where({ id: funnel.id }).first()) as { title: string; version: number };
    return { save, stored };
  };

  it('saves at the limit: as many branch elements and as many text elements as the plan allows', async () => {
    const { save, stored } = await setUp(3);
    const res = await save(3, 3);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Funnel saved successfully');
    expect(await stored()).toMatchObject({ title: '3 branches, 3 texts' });
  });

  it('refuses one branch element over the limit with the branch message and keeps the stored funnel', async () => {
    const { save, stored } = await setUp(3);
    expect((await save(2, 1)).status).toBe(200);
    const before = await stored();
    const over = await save(4, 0);
    expect(over.status).toBe(403);
    expect(over.body).toEqual({ success: false, message: BRANCH_LIMIT });
    expect(await stored()).toEqual(before);
  });

  it('refuses one text element over the limit with the text message and keeps the stored funnel', async () => {
    const { save, stored } = await setUp(3);
    expect((await save(1, 2)).status).toBe(200);
    const before = await stored();
    const over = await save(3, 4);
    expect(over.status).toBe(403);
    expect(over.body).toEqual({ success: false, message: TEXT_LIMIT });
    expect(await stored()).toEqual(before);
  });

  it('names the branch limit first when both are over', async () => {
    const { save } = await setUp(1);
    expect((await save(2, 2)).body.message).toBe(BRANCH_LIMIT);
  });

  it('a limit of 0 allows no elements of either type, but an empty funnel saves', async () => {
    const { save } = await setUp(0);
    expect((await save(0, 0)).status).toBe(200);
    expect((await save(0, 1)).body).toEqual({ success: false, message: TEXT_LIMIT });
    expect((await save(1, 0)).body).toEqual({ success: false, message: BRANCH_LIMIT });
  });

  it('a null limit means unlimited', async () => {
    const { save } = await setUp(null);
    expect((await save(25, 25)).status).toBe(200);
  });

  it('never refuses an admin', async () => {
    const { save } = await setUp(null, suite.admin);
    expect((await save(30, 30)).status).toBe(200);
  });
});

describe('funnel list, duplicate, delete and tenancy', () => {
  it('lists my funnels paged and searchable', async () => {
    const me = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
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
    const other = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
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
    expect(await suite.db('branchify_funnels').where({ id: theirs.id }).first()).toMatchObject({ title: 'My funnel' });

    const mine = await createFunnel(user);
    const res = await user.http.delete(`/api/funnels/${mine.id}`, user.token);
    expect(res.body).toEqual({ success: true, message: 'Funnel deleted successfully', data: null });
    expect(await suite.db('branchify_funnels').where({ id: mine.id }).first()).toBeUndefined();
    expect((await client().get(`/api/funnels/${mine.identifier}/player`)).status).toBe(404);
  });

  it('needs a signed-in user', async () => {
    expect((await client().get('/api/funnels')).status).toBe(401);
  });
});
