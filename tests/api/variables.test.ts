// @serial: changes outgoing webhooks for the whole install (tests/harness/groups.js)
import { addVideo, branchElement, createFunnel, freePlan, subscribedUser, textElement, uuid } from './support/content';
import { client } from './support/http';
import { eventually } from './support/stripe';
import { createEndpoint, deliveriesOf, receiver, removeEndpoints } from './support/webhooks';
import { useApiSuite } from './support/suite';

/**
 * Funnel variables and conditions through the API: the save checks them (a bad condition is a 422
 * naming it and where it goes wrong), the player payload and the export carry them, the player's
 * reports keep only declared, typed values, and they reach resume, the webhooks and the CSV.
 */
const suite = useApiSuite();

afterAll(async () => {
  await removeEndpoints(suite.admin);
});

const VARIABLES = [
  { name: 'name', type: 'text', default: '', fromUrl: true },
  { name: 'score', type: 'number', default: 0 },
  { name: 'liked', type: 'yesno', default: false },
];

/** Intro greets by name and offers a score-raising answer and a branch shown from score 2; the second video ends the funnel. */
const quizDocument = (a: number, b: number, change: { when?: string } = {}) => {
  const quiz = branchElement('quiz', 'intro', 'second');
  const answer = { ...quiz.data.branches[0]!, id: 'answer', onclick: 'timestamp', video: null, set: ['score + 1', 'liked = yes'] };
  const bonus = { ...quiz.data.branches[0]!, id: 'bonus', when: change.when ?? 'score >= 2 and liked' };
  return {
    title: 'Quiz',
    description: '',
    settings: { enable_resume_play: true },
    variables: VARIABLES,
    videos: [
      {
        id: a,
        editor_id: 'intro',
        elements: [
          { ...quiz, data: { ...quiz.data, branches: [answer, bonus] } },
          { ...textElement('hello', 'intro', 'Hello {{name}}'), when: 'name != ""' },
        ],
      },
      { id: b, editor_id: 'second', elements: [] },
    ],
  };
};

const quizFunnel = async () => {
  const owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
  const a = await addVideo(owner, { title: 'Intro' });
  const b = await addVideo(owner, { provider: 'vimeo', url: '76979871', title: 'Second' });
  const funnel = await createFunnel(owner);
  const saved = await owner.http.put(`/api/funnels/${funnel.id}`, quizDocument(a.id, b.id), owner.token);
  expect(saved.status).toBe(200);
  return { owner, funnel, a, b, saved };
};

const startView = async (reference: string, token?: string) => {
  const res = await client().post(`/api/funnels/${reference}/views`, { event_id: uuid(), ...(token ? { viewer_token: token } : {}) });
  expect(res.status).toBe(201);
  return res.body.data as { view_id: string; view_token: string; viewer_token: string; last_view_state: Record<string, unknown> | null };
};

describe('saving a funnel with variables and conditions', () => {
  it('stores them, answers them to the editor and the player payload carries them', async () => {
    const { owner, funnel, saved } = await quizFunnel();
    const fullVariables = VARIABLES.map((v) => ({ fromUrl: false, ...v }));
    expect(saved.body.data.variables).toEqual(fullVariables);
    const row = await suite.db('branchify_funnels').where({ id: funnel.id }).first();
    expect(typeof row.variables === 'string' ? JSON.parse(row.variables) : row.variables).toEqual(fullVariables);
    expect((await owner.http.get(`/api/funnels/${funnel.id}`, owner.token)).body.data.variables).toEqual(fullVariables);

    const payload = (await client().get(`/api/funnels/${funnel.identifier}/player`)).body.data;
    expect(payload.variables).toEqual(fullVariables);
    const [quiz, hello] = payload.videos[0].elements;
    expect(quiz.data.branches.map((b: { id: string; when: string; set: string[] }) => [b.id, b.when, b.set])).toEqual([
      ['answer', '', ['score + 1', 'liked = yes']],
      ['bonus', 'score >= 2 and liked', []],
    ]);
    expect(hello).toMatchObject({ when: 'name != ""', data: { title: 'Hello {{name}}' } });
  });

  it('refuses a condition that does not parse or names no variable with a 422 naming the field and where it goes wrong', async () => {
    const { owner, funnel, a, b } = await quizFunnel();
    const before = await suite.db('branchify_funnels').where({ id: funnel.id }).first();
    const broken = await owner.http.put(`/api/funnels/${funnel.id}`, quizDocument(a.id, b.id, { when: 'score >= ' }), owner.token);
    expect(broken.status).toBe(422);
    expect(broken.body.errors).toEqual({
      'videos.0.elements.0.data.branches.1.when': [
        'Condition "score >= " at character 10: expected a value (a variable, a number, "text", yes or no), but the condition ends here',
      ],
    });
    const unknown = await owner.http.put(`/api/funnels/${funnel.id}`, quizDocument(a.id, b.id, { when: 'points > 2' }), owner.token);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({
      'videos.0.elements.0.data.branches.1.when': ['Condition "points > 2" at character 1: \'points\' is not a variable of this funnel'],
    });
    const mixed = await owner.http.put(`/api/funnels/${funnel.id}`, quizDocument(a.id, b.id, { when: 'name > 2' }), owner.token);
    expect(mixed.body.errors['videos.0.elements.0.data.branches.1.when']).toEqual(['Condition "name > 2" at character 8: cannot compare text with a number']);
    const badName = await owner.http.put(
      `/api/funnels/${funnel.id}`,
      { ...quizDocument(a.id, b.id), variables: [...VARIABLES, { name: 'bad name', type: 'text' }] },
      owner.token,
    );
    expect(badName.status).toBe(422);
    expect(Object.keys(badName.body.errors)).toEqual(['variables.3.name']);
    // Nothing was stored by the refused saves.
    expect((await suite.db('branchify_funnels').where({ id: funnel.id }).first()).version).toBe(before.version);
  });

  it('exports them (format 2) and imports them back', async () => {
    const { owner, funnel } = await quizFunnel();
    const file = JSON.parse((await owner.http.get(`/api/funnels/${funnel.id}/export`, owner.token)).text);
    expect(file.version).toBe(2);
    expect(file.funnel.variables).toHaveLength(3);
    const imported = await owner.http.post('/api/funnels/import', file, owner.token);
    expect(imported.status).toBe(201);
    expect(imported.body.data.variables.map((v: { name: string }) => v.name)).toEqual(['name', 'score', 'liked']);
    expect(imported.body.data.videos[0].elements[0].data.branches[1].when).toBe('score >= 2 and liked');
  });
});

describe("the viewer's variables", () => {
  let ctx: Awaited<ReturnType<typeof quizFunnel>>;
  beforeAll(async () => {
    ctx = await quizFunnel();
  });

  it('are kept with the view, declared and typed only, and come back to a returning viewer', async () => {
    const ref = ctx.funnel.identifier;
    const view = await startView(ref);
    const update = await client().put(`/api/funnels/${ref}/views`, {
      view_id: view.view_id,
      view_token: view.view_token,
      viewer_token: view.viewer_token,
      editor_id: 'intro',
      last_watch_time: 6,
      variables: { name: 'Ada', score: 2, liked: 'yes', intruder: 'x' },
    });
    expect(update.status).toBe(200);
    const row = await suite.db('branchify_funnel_views').where({ event_id: view.view_id }).first();
    const stored = typeof row.variables === 'string' ? JSON.parse(row.variables) : row.variables;
    expect(stored).toEqual({ name: 'Ada', score: 2, liked: true });
    const returning = await startView(ref, view.viewer_token);
    expect(returning.last_view_state).toEqual({ editor_id: 'intro', last_watch_time: 6, variables: { name: 'Ada', score: 2, liked: true } });

    const tooLong = await client().put(`/api/funnels/${ref}/views`, {
      view_id: view.view_id,
      view_token: view.view_token,
      viewer_token: view.viewer_token,
      editor_id: 'intro',
      last_watch_time: 6,
      variables: { name: 'x'.repeat(201) },
    });
    expect(tooLong.status).toBe(422);
  });

  it('arrive in the branch.clicked and funnel.completed webhooks', async () => {
    const endpoint = await createEndpoint(suite.admin, { events: ['funnel.completed', 'branch.clicked'] });
    const ref = ctx.funnel.identifier;
    const view = await startView(ref);
    const click = {
      event_id: uuid(),
      view_id: view.view_id,
      view_token: view.view_token,
      video_id: 'intro',
      node_id: 'answer',
      connected_node: 'timestamp:0',
      type: 'branch',
      player_time: 2,
    };
    const accepted = await client().post(`/api/funnels/${ref}/interactions`, { ...click, variables: { name: 'Ada', score: 1, liked: true, other: 1 } });
    expect(accepted.status).toBe(202);
    await client().post(`/api/funnels/${ref}/interactions`, { ...click, variables: { score: 99 } }); // a retry: announced as first stored
    const moved = {
      view_id: view.view_id,
      view_token: view.view_token,
      viewer_token: view.viewer_token,
      duration: 100,
      variables: { name: 'Ada', score: 2, liked: true },
    };
    await client().put(`/api/funnels/${ref}/views`, { ...moved, editor_id: 'second', last_watch_time: 50 });
    await client().put(`/api/funnels/${ref}/views`, { ...moved, editor_id: 'second', last_watch_time: 95 });

    await receiver.waitFor(endpoint.url, 2);
    await eventually(
      () => deliveriesOf(suite.admin, endpoint.id),
      (list) => list.length >= 2 && list.every((d) => d.status === 'succeeded'),
    );
    const bodies = (await receiver.requests(endpoint.url)).map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.type).sort()).toEqual(['branch.clicked', 'funnel.completed']);
    const of = (type: string) => bodies.find((b) => b.type === type)!.data;
    expect(of('branch.clicked')).toMatchObject({ node_id: 'answer', variables: { name: 'Ada', score: 1, liked: true } });
    expect(of('funnel.completed')).toMatchObject({ editor_id: 'second', variables: { name: 'Ada', score: 2, liked: true } });
  });

  it('are listed per view in the CSV export, one column each', async () => {
    const { owner, funnel } = ctx;
    const res = await owner.http.get(`/api/funnels/${funnel.id}/analytics.csv`, owner.token).buffer(true);
    expect(res.status).toBe(200);
    const lines = res.text.split('\r\n');
    expect(lines[0]!.endsWith(',watch_time,view_id,var_name,var_score,var_liked')).toBe(true);
    const views = lines.filter((l) => l.startsWith('view,'));
    expect(views.length).toBeGreaterThanOrEqual(2);
    expect(views.some((l) => l.endsWith(',Ada,2,yes'))).toBe(true);
    // A view that reported nothing shows the defaults.
    expect(views.some((l) => l.endsWith(',,0,no'))).toBe(true);
  });
});
