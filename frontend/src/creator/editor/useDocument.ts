import { useSyncExternalStore } from 'react';
import type { DocumentStore, EditorState } from './document-store';

/**
 * A view's reading of the document store: it renders again only when what the selector returns
 * changes (return a field or an existing object, never a new one per call).
 */
export const useDocument = <T>(store: DocumentStore, selector: (state: EditorState) => T): T => {
  const read = () => selector(store.getState());
  return useSyncExternalStore(store.subscribe, read, read);
};
