import fc from 'fast-check';
import { MESSAGES } from '@branchify/shared';
import { mutatedExport } from '../harness/export-mutations';
import { addVideo, branchElement, createFunnel, freePlan, subscribedUser, textElement } from './support/content';
import { client } from './support/http';
import type { Session } from './support/users';
import { useApiSuite } from './support/suite';

/**
 * Fuzzed imports: export files mutated anywhere (hostile values, deletions, duplicates, strings
 * for objects) are imported, or refused with a 422; never a 500, never part of a funnel.
 */
const suite = useApiSuite();

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPQVz/3H4QZYAwARtAIja84x1MAAAAASUVORK5CYII=',
  'base64',
);
/** Imports share the image uploads' budget per account (30 a window): a new importer every so often. */
const IMPORTS_PER_IMPORTER = 25;
/** FUZZ_RUNS runs more (a longer search before a release). */
const RUNS = Number(process.env.FUZZ_RUNS) || 150;

/** Whether a JSON value holds a `__proto__` key anywhere (every JSON body with one is refused). */
const protoKeyIn = (value: unknown): boolean => {
  if (Array.isArray(value)) return value.some(protoKeyIn);
  if (!value || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, inner]) => key === '__proto__' || protoKeyIn(inner));
};

const holdings = async (userId: number) => ({
  funnels: (await suite.db('branchify_funnels').where({ owner_id: userId })).length,
  videos: (await suite.db('branchify_videos').where({ owner_id: userId })).length,
  images: (await suite.db('branchify_creator_images').where({ owner_id: userId })).length,
});

let base: unknown;
let planId: number;

beforeAll(async () => {
  planId = (await freePlan(suite.admin)).id;
  const owner = await subscribedUser(suite.admin, planId);
  const a = await addVideo(owner, { title: 'Intro' });
  const b = await addVideo(owner, { provider: 'generic', url: 'https://media.example.com/offer.mp4', title: 'Offer' });
  const image = (await owner.http.upload('/api/uploads/images', owner.token).attach('image', PNG, 'b.png')).body.data.url as string;
  const funnel = await createFunnel(owner);
  const choice = branchElement('choice', 'intro', 'offer');
  Object.assign(choice.data.branches[0]!, { type: 'image', image: { source: image } });
  const saved = await owner.http.put(
    `/api/funnels/${funnel.id}`,
    {
      title: 'Fuzz base',
      videos: [
        { id: a.id, editor_id: 'intro', elements: [choice, textElement('t', 'intro')] },
        { id: b.id, editor_id: 'offer', elements: [] },
      ],
    },
    owner.token,
  );
  expect(saved.status).toBe(200);
  base = JSON.parse((await owner.http.get(`/api/funnels/${funnel.id}/export`, owner.token)).text);
});

it(`imports ${RUNS} mutated files whole or refuses them with a 422, making nothing`, async () => {
  let importer: Session | null = null;
  let used = 0;
  const seen = { created: 0, refused: 0 };
  await fc.assert(
    fc.asyncProperty(mutatedExport(base), async (file) => {
      if (!importer || used === IMPORTS_PER_IMPORTER) {
        importer = await subscribedUser(suite.admin, planId);
        used = 0;
      }
      used += 1;
      const before = await holdings(importer.id);
      // As the dashboard sends it (a .json file) every other run; otherwise as a JSON body.
      const text = JSON.stringify(file);
      const asFile = used % 2 === 0;
      const request = importer.http.upload('/api/funnels/import', importer.token);
      const res = await (asFile ? request.attach('file', Buffer.from(text), 'f.json') : request.set('Content-Type', 'application/json').send(text));
      if (!asFile && (file === null || typeof file !== 'object')) {
        // The JSON body parser takes objects and arrays only, on every route.
        expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message: 'The request body is not valid JSON.' });
        return;
      }
      if (!asFile && protoKeyIn(file)) {
        // The JSON body parser refuses `__proto__` keys on every route; a file is read by the import.
        expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message: MESSAGES.forbiddenBodyKey });
        expect(await holdings(importer.id)).toEqual(before);
        return;
      }
      expect([201, 422]).toContain(res.status);
      if (res.status === 422) {
        seen.refused += 1;
        expect(res.body.message).toMatch(/^(This file cannot be imported: |Choose the funnel file)/);
        expect(await holdings(importer.id)).toEqual(before);
        return;
      }
      seen.created += 1;
      // Made whole: every video of the funnel is the importer's, and it plays.
      const library = new Set((await suite.db('branchify_videos').where({ owner_id: importer.id })).map((v) => v.id));
      for (const v of res.body.data.videos as Array<{ id: number }>) expect(library.has(v.id)).toBe(true);
      expect((await client().get(`/api/funnels/${res.body.data.identifier}/player`)).status).toBe(200);
    }),
    { numRuns: RUNS },
  );
  console.log(`fuzzed imports: ${seen.created} made, ${seen.refused} refused`);
  expect(seen.refused).toBeGreaterThan(0);
});
