import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils } from 'react-admin';
import { getAccessToken } from '../shared/api';

/**
 * ra-data-simple-rest, unmodified, over an httpClient that speaks our /api: the bearer token and
 * the spec's headers out, the envelope's `data` (or paged `data.data`) in. The server sends
 * Content-Range for the simple-REST list parameters (docs/decisions.md "Paged lists keep the
 * envelope").
 */
export const httpClient = async (url: string, options: fetchUtils.Options = {}) => {
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  headers.set('X-Requested-With', 'XMLHttpRequest');
  const token = getAccessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const res = await fetchUtils.fetchJson(url, { ...options, headers });
  const body = res.json as { data?: unknown } | null;
  let json: unknown = body;
  if (body && typeof body === 'object' && 'data' in body) {
    const data = body.data as { data?: unknown } | unknown;
    json = data && typeof data === 'object' && !Array.isArray(data) && 'data' in (data as object) && Array.isArray((data as { data: unknown }).data) ? (data as { data: unknown }).data : data;
  }
  return { ...res, json };
};

export const dataProvider = simpleRestProvider('/api/admin', httpClient);
