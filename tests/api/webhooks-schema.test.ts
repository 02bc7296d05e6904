import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { addVideo, createFunnel, freePlan, subscribedUser, twoVideoDocument, uuid } from './support/content';
import { client } from './support/http';
import { eventually } from './support/stripe';
import { createEndpoint, deliveriesOf, receiver, removeEndpoints } from './support/webhooks';
import { useApiSuite } from './support/suite';

/**
 * Every event an endpoint receives matches the payload schema the OpenAPI document's `webhooks`
 * section gives for its type (the document as served, checked with a JSON Schema 2020-12 validator).
 */
const suite = useApiSuite();

afterAll(async () => {
  await removeEndpoints(suite.admin);
});

type OpenApi = { webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: object } } } } }>; components: object };

it('delivers every event type with a body its documented, versioned schema accepts', async () => {
  const doc = (await client().get('/api/branchify/openapi.json')).body as OpenApi;
  const endpoint = await createEndpoint(suite.admin);

  // Each event type once: a test event, a subscription, a view, a click and a completion.
  await suite.admin.http.post(`/api/admin/webhooks/${endpoint.id}/test`, {}, suite.admin.token);
  const owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
  const a = await addVideo(owner, { title: 'Intro' });
  const b = await addVideo(owner, { provider: 'vimeo', url: '76979871', title: 'Second' });
  const funnel = await createFunnel(owner);
  await owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id), owner.token);
  const viewer = client();
  const start = await viewer.post(`/api/funnels/${funnel.identifier}/views`, { event_id: uuid() });
  const { view_id, view_token, viewer_token } = start.body.data;
  const click = { event_id: uuid(), view_id, view_token, video_id: 'intro', node_id: 'el-1', connected_node: 'second', type: 'branch', player_time: 4.5 };
  await viewer.post(`/api/funnels/${funnel.identifier}/interactions`, click);
  // The same click again: announced from what was stored.
  await viewer.post(`/api/funnels/${funnel.identifier}/interactions`, click);
  await viewer.put(`/api/funnels/${funnel.identifier}/views`, { view_id, view_token, viewer_token, editor_id: 'second', last_watch_time: 95, duration: 100 });

  const types = [...Object.keys(doc.webhooks)].sort();
  expect(types).toEqual(['branch.clicked', 'funnel.completed', 'funnel.viewed', 'subscription.changed', 'webhook.test']);
  await eventually(
    () => deliveriesOf(suite.admin, endpoint.id),
    (list) => types.every((t) => list.some((d) => d.type === t && d.status === 'succeeded')),
  );

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validators = new Map(
    Object.entries(doc.webhooks).map(([type, hook]) => [
      type,
      // The event's schema with the document's components beside it, so its $refs resolve.
      ajv.compile({ ...hook.post.requestBody.content['application/json'].schema, components: doc.components }),
    ]),
  );
  const received = (await receiver.requests(endpoint.url)).map((r) => JSON.parse(r.body) as { type: string; version: number });
  expect(new Set(received.map((r) => r.type))).toEqual(new Set(types));
  for (const body of received) {
    const validate = validators.get(body.type)!;
    expect({ type: body.type, valid: validate(body), errors: validate.errors ?? null }).toEqual({ type: body.type, valid: true, errors: null });
    expect(body.version).toBe(1);
  }
});
