import { countElements, MESSAGES } from '@branchify/shared';
import type { EditorDocument, EditorLimits } from './types';

/** Why one more element of this type is refused by the plan, or null when it fits. */
export const limitRefusal = (doc: EditorDocument, limits: EditorLimits, type: 'text' | 'branch'): string | null => {
  const limit = limits.perFunnel;
  if (limit === null) return null;
  const count = countElements(doc.videos, type);
  if (count + 1 > limit) return type === 'branch' ? MESSAGES.branchLimitReached : MESSAGES.textLimitReached;
  return null;
};
