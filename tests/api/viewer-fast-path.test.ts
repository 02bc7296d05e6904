import request, { type Response } from 'supertest';
import { baseUrl, client } from './support/http';
import { publishedFunnel as published, twoVideoDocument } from './support/content';
import { useApiSuite } from './support/suite';

/**
 * The player page and payload are answered from cached bytes ahead of the middleware chain once
 * the chain has answered them: every later answer must carry the very headers the chain gave
 * (security headers, CSP, caching), in every coding, and never outlive a change.
 */
const suite = useApiSuite();

const publishedFunnel = () => published(suite.admin);

/** The headers that say how to treat the answer (not its date or length). */
const policy = (res: Response) => {
  const { date: _date, 'content-length': _length, connection: _connection, 'keep-alive': _keepAlive, ...rest } = res.headers as Record<string, string>;
  return rest;
};

const get = (path: string, headers: Record<string, string> = {}) => {
  const req = client().get(path);
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req.buffer(true);
};

/** The body as text (superagent undoes the coding named in Content-Encoding). */
const text = (res: Response): string => res.text;

describe.each([
  ['the player page', (ref: string) => `/player/${ref}`, (ref: string) => `/PLAYER/${ref}/`, 'text/html'],
  ['the player payload', (ref: string) => `/api/funnels/${ref}/player`, (ref: string) => `/API/funnels/${ref}/player/`, 'application/json'],
])('%s from cached bytes', (_name, path, otherSpelling, type) => {
  it('sends the same headers and bytes as the middleware chain, in every coding', async () => {
    const { funnel } = await publishedFunnel();
    for (const encoding of ['br', 'gzip', 'identity']) {
      const headers = { 'Accept-Encoding': encoding };
      const first = await get(path(funnel.identifier), headers);
      const later = await get(path(funnel.identifier), headers);
      // Another spelling of the path always goes through the chain.
      const chain = await get(otherSpelling(funnel.identifier), headers);
      expect([first.status, later.status, chain.status]).toEqual([200, 200, 200]);
      expect(later.headers['content-type']).toContain(type);
      expect(later.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      expect(policy(later)).toEqual(policy(first));
      expect(policy(later)).toEqual(policy(chain));
      expect(text(later)).toBe(text(chain));
      expect(later.headers['x-content-type-options']).toBe('nosniff');
      expect(later.headers['content-security-policy']).toBeTruthy();
    }
  });

  it('answers 304 to a matching If-None-Match and answers HEAD without a body', async () => {
    const { funnel } = await publishedFunnel();
    const first = await get(path(funnel.identifier), { 'Accept-Encoding': 'gzip' });
    const again = await get(path(funnel.identifier), { 'Accept-Encoding': 'gzip', 'If-None-Match': first.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    const head = await request(baseUrl()).head(path(funnel.identifier)).set('Accept-Encoding', 'gzip').set('X-Forwarded-For', client().ip);
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(first.headers.etag);
  });

  it('shows a save at once, and answers 404 once the owner is suspended', async () => {
    const { owner, funnel, a, b } = await publishedFunnel();
    await get(path(funnel.identifier));
    await get(path(funnel.identifier));
    expect((await owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id, 'Saved again'), owner.token)).status).toBe(200);
    expect(text(await get(path(funnel.identifier)))).toContain('Saved again');
    const suspended = await suite.admin.http.put(`/api/admin/users/${owner.id}`, { status: 'suspended', status_note: 'Checks' }, suite.admin.token);
    expect(suspended.status).toBe(200);
    expect((await get(path(funnel.identifier))).status).toBe(404);
  });

  it("answers a trusted cross-origin request with that origin's CORS headers, and another origin without them", async () => {
    const { funnel } = await publishedFunnel();
    await get(path(funnel.identifier));
    const trusted = await get(path(funnel.identifier), { Origin: 'https://partner.example.test' });
    expect(trusted.status).toBe(200);
    expect(trusted.headers['access-control-allow-origin']).toBe('https://partner.example.test');
    const other = await get(path(funnel.identifier), { Origin: 'https://elsewhere.example.test' });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
