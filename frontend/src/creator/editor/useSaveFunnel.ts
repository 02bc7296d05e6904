import { useEffect, useState } from 'react';
import { funnelDocumentSchema, type FunnelResource } from '@branchify/shared';
import { ApiError, api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { toRequestBody, type DocumentStore, type EditorDocument } from './document-store';
import type { SaveErrors } from './errors';
import { useDocument } from './useDocument';

/** Schema problems as the server would name them: path → messages. */
const problemsOf = (doc: EditorDocument): SaveErrors => {
  const parsed = funnelDocumentSchema.safeParse(toRequestBody(doc));
  if (parsed.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (errors[issue.path.join('.')] ??= []).push(issue.message);
  return errors;
};

/**
 * Saving the funnel: checked first as the server checks it, then sent. The problems found stay
 * listed until fixed; a refusal by the plan goes to `refuse`. Ctrl+S saves from anywhere on the page.
 */
export const useSaveFunnel = (store: DocumentStore, funnelId: FunnelResource['id'], refuse: (message: string) => void) => {
  const doc = useDocument(store, (s) => s.doc);
  const [errors, setErrors] = useState<SaveErrors>({});
  const alert = useAlert();

  // Problems found at the last save clear themselves as they are fixed.
  useEffect(() => setErrors((current) => (Object.keys(current).length ? problemsOf(doc) : current)), [doc]);

  const save = useApiMutation({
    mutationFn: (sent: EditorDocument) => api.put<FunnelResource>(`funnels/${funnelId}`, toRequestBody(sent)),
    invalidates: [keys.funnels.all],
    onSuccess: (_saved, sent) => {
      store.markSaved(sent);
      setErrors({});
    },
  });
  const saveNow = async (): Promise<boolean> => {
    const sent = store.getState().doc;
    const problems = problemsOf(sent);
    // Each problem shows at its field and in the page's list: no generic toast on top.
    if (Object.keys(problems).length) {
      setErrors(problems);
      return false;
    }
    try {
      await save.mutateAsync(sent);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) refuse(error.message);
      else if (error instanceof ApiError && Object.keys(error.errors).length) setErrors(error.errors);
      else alert.error(error);
      return false;
    }
  };

  // Ctrl+S saves from anywhere on the page.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void saveNow();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return { errors, saveNow, saving: save.isPending };
};
