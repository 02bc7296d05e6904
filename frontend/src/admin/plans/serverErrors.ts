import type { FieldValues } from 'react-hook-form';

/**
 * The API's field errors (`{ price: ['…'], 'video_sources.0': ['…'] }`) as react-admin's form sets
 * them: the first message, on the field it belongs to (an item's error goes to its list).
 */
export const formErrorsFrom = (errors: unknown): FieldValues | undefined => {
  if (!errors || typeof errors !== 'object') return undefined;
  const out: Record<string, string> = {};
  for (const [key, messages] of Object.entries(errors as Record<string, unknown>)) {
    const field = key.split('.')[0];
    const first: unknown = Array.isArray(messages) ? messages[0] : messages;
    if (typeof first === 'string' && !(field in out)) out[field] = first;
  }
  return Object.keys(out).length ? out : undefined;
};
