import simpleRestProvider from 'ra-data-simple-rest';
import { HttpError, type fetchUtils } from 'react-admin';
import { exchange } from '../shared/api';

/**
 * ra-data-simple-rest, unmodified, over the app's one HTTP client (`exchange`: the bearer token,
 * the spec's headers, a refresh and retry when the access token has expired). The envelope's
 * `data` (or paged `data.data`) is what react-admin reads; the server sends Content-Range for the
 * simple-REST list parameters (docs/decisions/010-paged-lists-keep-the-envelope-for-react-admin-too.md).
 */
const httpClient = async (url: string, options: fetchUtils.Options = {}) => {
  const path = url.replace(/^\/api\//, '');
  const body = typeof options.body === 'string' && options.body ? (JSON.parse(options.body) as unknown) : options.body;
  const res = await exchange(options.method ?? 'GET', path, body);
  const envelope = res.body;
  if (res.status < 200 || res.status >= 300 || envelope?.success === false) {
    throw new HttpError(envelope?.message || 'An Error Occurred', res.status, envelope);
  }
  const data = envelope && typeof envelope === 'object' && 'data' in envelope ? envelope.data : envelope;
  const json = data && typeof data === 'object' && !Array.isArray(data) && 'data' in data && Array.isArray(data.data) ? data.data : data;
  return { status: res.status, headers: res.headers, body: JSON.stringify(json), json };
};

export const dataProvider = simpleRestProvider('/api/admin', httpClient);
