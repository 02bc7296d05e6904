import { MESSAGES } from '@branchify/shared';
import { ApiError, freshAccessToken, refreshSession } from './api';

/**
 * Saves what an /api path answers as a file, under the name the server gives it
 * (Content-Disposition), or `fallbackName`. A refusal rejects with the server's sentence.
 */
export const downloadFile = async (path: string, fallbackName: string): Promise<void> => {
  const get = async () => {
    const token = await freshAccessToken();
    return fetch(path, { credentials: 'same-origin', headers: token ? { Authorization: `Bearer ${token}` } : {} });
  };
  let res = await get();
  if (res.status === 401 && (await refreshSession())) res = await get();
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(res.status, body?.message || MESSAGES.genericFailure);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
};
