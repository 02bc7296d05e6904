import { APP_VERSION, MESSAGES, WEBHOOK_PAYLOAD_VERSION } from '@branchify/shared';

/**
 * The OpenAPI 3.1 document of the integrator API (/api/branchify), served at
 * /api/branchify/openapi.json. Written by hand next to the routes it describes; the API test
 * checks every registered integrator route appears here.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const one = (name: string) => json({ type: 'object', required: ['data', 'meta'], properties: { data: ref(name), meta: { type: 'object' } } });
const many = (name: string) =>
  json({ type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: ref(name) }, meta: ref('PaginationMeta') } });
const failure = (description: string) => ({ description, ...json(ref('Error')) });

const documentId = {
  name: 'id',
  in: 'path',
  required: true,
  description: "The entry's documentId (Strapi 5 REST paths name documents, not numeric ids).",
  schema: { type: 'string' },
};
const listParams = [
  {
    name: 'filters',
    in: 'query',
    style: 'deepObject',
    explode: true,
    description: 'Strapi filters, e.g. filters[owner_id][$eq]=42.',
    schema: { type: 'object' },
  },
  { name: 'sort', in: 'query', description: 'e.g. createdAt:desc', schema: { type: 'string' } },
  { name: 'pagination[page]', in: 'query', schema: { type: 'integer', minimum: 1 } },
  { name: 'pagination[pageSize]', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
  { name: 'fields', in: 'query', style: 'deepObject', explode: true, description: 'Strapi field selection.', schema: { type: 'object' } },
];

const refusals = {
  '401': failure('No API token, an unknown or expired one, or an app access token (refused here).'),
  '403': failure('A read-only token on a write.'),
  '429': failure('Over the per-token budget (INTEGRATOR_RATE_LIMIT_MAX requests per window); see Retry-After.'),
};
const writeRefusals = {
  ...refusals,
  '404': failure('No subscription with this documentId.'),
  '409': failure(`A state conflict, e.g. "${MESSAGES.userAlreadySubscribed}" or "${MESSAGES.onlySelfManagedCancel}"`),
  '422': failure(`Invalid data, e.g. "${MESSAGES.platformPlanViaIntegratorApi}"`),
};

/** Relations an answer may include: a subscription's plan. A user (owner, subscriber) is never populated. */
const populatePlan = {
  name: 'populate',
  in: 'query',
  description:
    "`plan` adds the subscription's plan (public fields; `populate[plan][fields][0]=name` to choose them). Filters can follow it too: " +
    '`filters[plan][managed_by][$eq]=self`. The subscriber is not populated: use `user_id` with /users.',
  schema: { type: 'string', enum: ['plan'] },
};

/** The list and item reads of a content type; operation ids `list<Tag>` and `get<Name>` (stable: generated clients name methods by them). */
const read = (tag: string, name: string, summary: string, extra: object[] = []) => ({
  list: {
    get: {
      operationId: `list${tag}`,
      tags: [tag],
      summary: `List ${summary}`,
      parameters: [...listParams, ...extra],
      responses: { '200': { description: 'A page', ...many(name) }, ...refusals },
    },
  },
  item: {
    get: {
      operationId: `get${name}`,
      tags: [tag],
      summary: `One ${summary.replace(/s$/, '')}`,
      parameters: [documentId, ...extra],
      responses: { '200': { description: 'The entry', ...one(name) }, ...refusals, '404': failure('Not found.') },
    },
  },
});

const entry = (properties: Record<string, object>) => ({
  type: 'object',
  properties: { id: { type: 'integer' }, documentId: { type: 'string' }, ...properties, createdAt: dateTime, updatedAt: dateTime },
});
const dateTime = { type: ['string', 'null'], format: 'date-time' };
const nullableString = { type: ['string', 'null'] };
const nullableInteger = { type: ['integer', 'null'] };

const plans = read('Plans', 'Plan', 'plans');
const funnels = read('Funnels', 'Funnel', 'funnels');
const videos = read('Videos', 'Video', 'videos');
const subscriptions = read('Subscriptions', 'Subscription', 'subscriptions', [populatePlan]);
const users = read('Users', 'User', 'users');

/** An event's envelope: every delivery's body, with the event's own `data`. */
const event = (type: string, data: string, summary: string, description: string) => ({
  post: {
    operationId: `on${type
      .split('.')
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join('')}`,
    tags: ['Webhooks'],
    summary,
    description:
      `${description} Signed as Standard Webhooks says: \`webhook-id\` (the event id), \`webhook-timestamp\` and \`webhook-signature\`; ` +
      'verify them with a Standard Webhooks library before trusting the body. Delivered at least once: drop repeats by `id`.',
    requestBody: {
      required: true,
      ...json({
        type: 'object',
        required: ['id', 'type', 'version', 'created', 'data'],
        properties: {
          id: { type: 'string', pattern: '^evt_[0-9a-f]{32}$', description: 'The event id (also `webhook-id`): the same on every retry.' },
          type: { const: type },
          version: { const: WEBHOOK_PAYLOAD_VERSION, description: 'The payload version: a change a receiver could trip on comes with a new one.' },
          created: { type: 'integer', description: 'When the event happened, in unix seconds.' },
          data: ref(data),
        },
      }),
    },
    responses: {
      '200': { description: 'Received: any 2xx answer counts; anything else is retried with backoff.' },
    },
  },
});

const funnelRef = {
  type: 'object',
  required: ['id', 'identifier', 'title'],
  properties: { id: { type: 'integer' }, identifier: { type: 'string', description: 'Public reference: /player/{identifier}.' }, title: { type: 'string' } },
};
const viewerId = { type: 'string', pattern: '^[0-9a-f]{24}$', description: "A pseudonym of the viewer's browser (never the viewer's token)." };

export const INTEGRATOR_OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'Branchify integrator API',
    version: APP_VERSION,
    license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    description:
      "Strapi's generated REST API for scripts and integrations. Authenticate with a Strapi API token made in /cms " +
      '(Settings → API Tokens): `Authorization: Bearer <token>`. A read-only token reads; a full-access token also ' +
      'creates, changes, cancels and resumes self-managed subscriptions (billed by you, not by Stripe), under the same ' +
      "rules as the app. Answers use Strapi's REST shape: `{ data, meta }`, failures `{ data: null, error: { status, name, message, details } }`.",
  },
  servers: [{ url: '/api/branchify' }],
  security: [{ apiToken: [] }],
  tags: [
    { name: 'Plans', description: 'The plans users subscribe to: platform plans (sold through Stripe by the app) and self-managed ones (billed by you).' },
    { name: 'Subscriptions', description: "Users' subscriptions: read them all; create, change, cancel and resume self-managed ones." },
    { name: 'Funnels', description: "Creators' funnels (videos and their timed elements), and funnels moved between installs as export files." },
    { name: 'Videos', description: "Creators' video libraries: YouTube, Vimeo, Adilo and direct-file videos." },
    { name: 'Users', description: "Users' public fields (never passwords, tokens or payment ids)." },
    { name: 'Webhooks', description: 'Events sent to the endpoints an admin registers (Admin → Webhooks), each with its versioned payload.' },
  ],
  paths: {
    '/plans': plans.list,
    '/plans/{id}': plans.item,
    '/funnels': funnels.list,
    '/funnels/{id}': funnels.item,
    '/funnels/{id}/export': {
      get: {
        operationId: 'exportFunnel',
        tags: ['Funnels'],
        summary: 'Export a funnel as a file (its document, the library entries its videos play, its uploaded images embedded)',
        description: "What the dashboard's Export downloads, under `data`. Import it into any install with POST /funnels/import.",
        parameters: [documentId],
        responses: { '200': { description: 'The export file', ...one('FunnelExport') }, ...refusals, '404': failure('Not found.') },
      },
    },
    '/funnels/import': {
      post: {
        operationId: 'importFunnel',
        tags: ['Funnels'],
        summary: "Create a funnel in a user's account from an export file",
        description:
          "Checked as the user's own import: the file's shape and version, the funnel with the save's rules, the user's plan limits. " +
          "Videos already in the user's library (same source) are used; the others are added. All of it is made, or nothing. " +
          '`dry_run=true` answers only what would be made (`meta.plan`). The JSON body is at most 1 MB: larger files (embedded images) go through the app.',
        parameters: [{ name: 'dry_run', in: 'query', schema: { type: 'boolean' } }],
        requestBody: { required: true, ...json({ type: 'object', required: ['data'], properties: { data: ref('FunnelImport') } }) },
        responses: {
          '200': {
            description: 'With dry_run: what would be made',
            ...json({ type: 'object', properties: { data: { type: 'null' }, meta: { type: 'object' } } }),
          },
          '201': { description: 'Created', ...json({ type: 'object', properties: { data: ref('Funnel'), meta: { type: 'object' } } }) },
          ...refusals,
          '422': failure('The file cannot be imported: the message names the path in the file and the problem.'),
        },
      },
    },
    '/videos': videos.list,
    '/videos/{id}': videos.item,
    '/users': users.list,
    '/users/{id}': users.item,
    '/subscriptions': {
      ...subscriptions.list,
      post: {
        operationId: 'createSubscription',
        tags: ['Subscriptions'],
        summary: 'Create a self-managed subscription for a user (active at once)',
        description:
          'The plan must be active and self-managed; the user must not be an admin and must have no subscription that still grants access. A canceled one is replaced.',
        requestBody: { required: true, ...json({ type: 'object', required: ['data'], properties: { data: ref('SubscriptionCreate') } }) },
        responses: { '201': { description: 'Created', ...one('Subscription') }, ...writeRefusals },
      },
    },
    '/subscriptions/{id}': {
      ...subscriptions.item,
      put: {
        operationId: 'updateSubscription',
        tags: ['Subscriptions'],
        summary: 'Change a self-managed subscription: its plan, its status, or the end of its period (one change per call)',
        description: '`status: canceled` cancels (as POST …/cancel), `status: active` resumes (as POST …/resume).',
        parameters: [documentId],
        requestBody: { required: true, ...json({ type: 'object', required: ['data'], properties: { data: ref('SubscriptionUpdate') } }) },
        responses: { '200': { description: 'Changed', ...one('Subscription') }, ...writeRefusals },
      },
    },
    '/subscriptions/{id}/cancel': {
      post: {
        operationId: 'cancelSubscription',
        tags: ['Subscriptions'],
        summary: 'Cancel a self-managed subscription',
        description: 'At the end of its period (renews_at, when in the future) unless `period: immediately`; access lasts until canceled_at.',
        parameters: [documentId],
        requestBody: { required: false, ...json({ type: 'object', properties: { data: ref('SubscriptionCancel') } }) },
        responses: { '200': { description: 'Cancelled', ...one('Subscription') }, ...writeRefusals },
      },
    },
    '/subscriptions/{id}/resume': {
      post: {
        operationId: 'resumeSubscription',
        tags: ['Subscriptions'],
        summary: 'Resume a self-managed subscription an integrator cancelled (it becomes active at once)',
        parameters: [documentId],
        responses: { '200': { description: 'Resumed', ...one('Subscription') }, ...writeRefusals },
      },
    },
  },
  webhooks: {
    'subscription.changed': event(
      'subscription.changed',
      'SubscriptionChangedData',
      "A user's subscription changed status",
      'Sent once per status change (activation, cancellation, renewal failure, resumption), by whichever path made it.',
    ),
    'funnel.viewed': event('funnel.viewed', 'FunnelViewedData', 'A viewer started a funnel', 'Sent once per view the player starts.'),
    'branch.clicked': event(
      'branch.clicked',
      'BranchClickedData',
      'A viewer clicked a branch button',
      'Sent once per click (an inaction default is not a click).',
    ),
    'webhook.test': event(
      'webhook.test',
      'WebhookTestData',
      'A test event',
      'Sent when an admin presses Send test event on the endpoint, whatever events it subscribes to.',
    ),
    'funnel.completed': event(
      'funnel.completed',
      'FunnelCompletedData',
      'A viewer reached the end of a funnel',
      'Sent the first time a view reaches 90% of a video that branches nowhere else.',
    ),
  },
  components: {
    securitySchemes: { apiToken: { type: 'http', scheme: 'bearer', description: 'A Strapi API token (read-only or full-access).' } },
    schemas: {
      Error: {
        type: 'object',
        required: ['data', 'error'],
        properties: {
          data: { type: 'null' },
          error: {
            type: 'object',
            required: ['status', 'name', 'message'],
            properties: {
              status: { type: 'integer' },
              name: { type: 'string' },
              message: { type: 'string' },
              details: { type: 'object', description: 'For invalid data: `errors` keyed by field name.' },
            },
          },
        },
      },
      PaginationMeta: {
        type: 'object',
        properties: {
          pagination: {
            type: 'object',
            properties: { page: { type: 'integer' }, pageSize: { type: 'integer' }, pageCount: { type: 'integer' }, total: { type: 'integer' } },
          },
        },
      },
      Plan: entry({
        name: { type: 'string' },
        description: nullableString,
        price: { type: 'string', description: 'Decimal string written with the decimals of its currency, e.g. "19.00", "1000" (JPY), "12.500" (BHD).' },
        currency: { type: 'string' },
        payment_schedule: { enum: ['monthly', 'yearly', 'one-time', 'free'] },
        managed_by: { enum: ['platform', 'self'] },
        max_funnel: nullableInteger,
        max_branch_per_funnel: nullableInteger,
        video_sources: { type: ['array', 'null'], items: { type: 'string' } },
        is_active: { type: 'boolean' },
        sort_order: nullableInteger,
      }),
      Subscription: entry({
        user_id: { type: 'integer' },
        plan_id: { type: 'integer' },
        plan: { ...ref('Plan'), description: 'Only with `populate=plan`.' },
        status: { enum: ['active', 'pending', 'payment_required', 'failed_renewal', 'canceled'] },
        managed_by: { enum: ['platform', 'self'] },
        started_at: dateTime,
        renews_at: dateTime,
        canceled_at: { ...dateTime, description: 'When access ends (in the future while a cancelled period runs out).' },
        cancel_at_period_end: { type: 'boolean' },
        cancellation_reason: nullableString,
        canceled_by: { type: ['string', 'null'], enum: ['user', 'admin', 'integration', 'system', null] },
        payment_method_id: nullableString,
      }),
      SubscriptionCreate: {
        type: 'object',
        required: ['user_id', 'plan_id'],
        properties: {
          user_id: { type: 'integer', description: "The user's numeric id." },
          plan_id: { type: 'integer', description: "A self-managed plan's numeric id." },
          renews_at: { ...dateTime, description: 'The end of the period you billed (optional).' },
        },
      },
      SubscriptionUpdate: {
        type: 'object',
        properties: {
          plan_id: { type: 'integer', description: 'Move an active subscription to another self-managed plan (renews_at may come with it).' },
          status: { enum: ['active', 'canceled'] },
          renews_at: dateTime,
          period: { enum: ['cancel_at_period_end', 'immediately'], description: 'With status canceled.' },
          cancellation_reason: nullableString,
        },
      },
      SubscriptionCancel: {
        type: 'object',
        properties: { period: { enum: ['cancel_at_period_end', 'immediately'] }, cancellation_reason: nullableString },
      },
      Funnel: entry({
        owner_id: { type: 'integer' },
        identifier: { type: 'string', description: 'Public reference: /player/{identifier}.' },
        title: { type: 'string' },
        description: nullableString,
        settings: { type: ['object', 'null'] },
        videos: { type: ['array', 'null'], items: { type: 'object' }, description: 'The videos and their timed elements.' },
        version: { type: 'integer' },
      }),
      FunnelExport: {
        type: 'object',
        required: ['format', 'version', 'funnel', 'library', 'images'],
        properties: {
          format: { const: 'branchify.funnel' },
          version: { type: 'integer', description: "The file format's version; older versions import." },
          exported_at: { type: 'string', format: 'date-time' },
          funnel: { type: 'object', description: 'title, description, settings and videos; each video names its library entry in `video`.' },
          library: {
            type: 'array',
            items: { type: 'object', properties: { ref: { type: 'string' }, provider: { type: 'string' }, url: { type: 'string' }, title: nullableString } },
          },
          images: {
            type: 'array',
            items: { type: 'object', properties: { path: { type: 'string' }, type: { type: 'string' }, data: { type: 'string', contentEncoding: 'base64' } } },
          },
        },
      },
      FunnelImport: {
        type: 'object',
        required: ['user_id', 'file'],
        properties: { user_id: { type: 'integer', description: 'The numeric id of the user the funnel is made for.' }, file: ref('FunnelExport') },
      },
      SubscriptionChangedData: {
        type: 'object',
        required: ['subscription', 'user'],
        properties: {
          subscription: {
            type: 'object',
            required: ['id', 'status', 'previous_status', 'plan_id', 'managed_by', 'started_at', 'renews_at', 'canceled_at', 'cancel_at_period_end'],
            properties: {
              id: { type: 'integer' },
              status: { enum: ['active', 'pending', 'payment_required', 'failed_renewal', 'canceled'] },
              previous_status: { type: ['string', 'null'], enum: ['active', 'pending', 'payment_required', 'failed_renewal', 'canceled', null] },
              plan_id: { type: 'integer' },
              managed_by: { enum: ['platform', 'self'] },
              started_at: dateTime,
              renews_at: dateTime,
              canceled_at: dateTime,
              cancel_at_period_end: { type: 'boolean' },
            },
          },
          user: {
            type: 'object',
            required: ['id', 'email'],
            properties: { id: { type: 'integer' }, email: { type: ['string', 'null'], format: 'email' } },
          },
        },
      },
      WebhookTestData: {
        type: 'object',
        required: ['endpoint', 'message'],
        properties: {
          endpoint: { type: 'object', required: ['id', 'url'], properties: { id: { type: 'integer' }, url: { type: 'string', format: 'uri' } } },
          message: { type: 'string' },
        },
      },
      FunnelViewedData: {
        type: 'object',
        required: ['funnel', 'view_id', 'viewer_id'],
        properties: { funnel: funnelRef, view_id: { type: 'string' }, viewer_id: viewerId },
      },
      BranchClickedData: {
        type: 'object',
        required: ['funnel', 'event_id', 'view_id', 'video_id', 'node_id', 'connected_node', 'player_time', 'variables'],
        properties: {
          funnel: funnelRef,
          event_id: { type: 'string', description: "The player's id of the click." },
          view_id: { type: ['string', 'null'] },
          video_id: { type: 'string', description: 'The editor id of the video clicked on.' },
          node_id: { type: 'string', description: 'The id of the branch button clicked.' },
          connected_node: { type: ['string', 'null'], description: 'The editor id of the video it leads to (null for a link out).' },
          player_time: { type: ['number', 'null'], description: 'Seconds into the video.' },
          variables: { $ref: '#/components/schemas/FunnelVariables' },
        },
      },
      FunnelCompletedData: {
        type: 'object',
        required: ['funnel', 'view_id', 'viewer_id', 'editor_id', 'reached', 'duration', 'variables'],
        properties: {
          funnel: funnelRef,
          view_id: { type: 'string' },
          viewer_id: viewerId,
          editor_id: { type: 'string', description: 'The editor id of the last video.' },
          reached: { type: 'number', description: 'Seconds of it watched.' },
          duration: { type: 'number', description: 'Its length in seconds.' },
          variables: { $ref: '#/components/schemas/FunnelVariables' },
        },
      },
      FunnelVariables: {
        type: 'object',
        description:
          "The viewer's funnel variables at the event, by name: every variable the funnel declares (text, number or yes/no as true/false). Empty when the funnel declares none.",
        additionalProperties: { type: ['string', 'number', 'boolean'] },
      },
      Video: entry({
        owner_id: { type: 'integer' },
        title: { type: 'string' },
        size: nullableInteger,
        thumbnail: nullableString,
        duration: { type: ['number', 'string', 'null'] },
        provider: { type: 'string' },
        external_id: nullableString,
        embed_url: nullableString,
        source: nullableString,
        source_url: nullableString,
      }),
      User: entry({
        first_name: nullableString,
        last_name: nullableString,
        email: { type: 'string' },
        status: { enum: ['active', 'suspended'] },
        is_admin: { type: 'boolean' },
        email_verified_at: dateTime,
        subscription_id: { ...nullableInteger, description: "The current subscription's numeric id." },
      }),
    },
  },
} as const;
