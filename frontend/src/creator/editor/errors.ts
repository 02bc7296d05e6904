import { createContext, useContext } from 'react';
import type { EditorDocument } from './document-store';

/**
 * Where the last save (or the check before it) found problems: messages keyed by the document
 * path the server names (`videos.0.elements.2.data.branches.1.externalLink`). Panels show each one
 * at its field; the page lists them all with a way to open each.
 */
export type SaveErrors = Readonly<Record<string, readonly string[]>>;

export const SaveErrorsContext = createContext<SaveErrors>({});

/** The first message for a field of an element, by the element's id (its path moves as the document changes). */
export const useFieldError = (doc: EditorDocument, elementId: string, field: string): string | undefined => {
  const errors = useContext(SaveErrorsContext);
  const path = elementPath(doc, elementId);
  return path ? errors[`${path}.${field}`]?.[0] : undefined;
};

export const elementPath = (doc: EditorDocument, elementId: string): string | null => {
  for (const [v, video] of doc.videos.entries()) {
    const e = video.elements.findIndex((el) => el.id === elementId);
    if (e >= 0) return `videos.${v}.elements.${e}`;
  }
  return null;
};

/** What a path points at, for the list of problems: the video, element and branch it names. */
export const describePath = (
  doc: EditorDocument,
  path: string,
): { editorId: string | null; elementId: string | null; branchId: string | null; label: string } => {
  const parts = path.split('.');
  if (parts[0] !== 'videos') return { editorId: null, elementId: null, branchId: null, label: parts.join(' ') || 'Funnel' };
  const video = doc.videos[Number(parts[1])];
  const element = parts[2] === 'elements' ? video?.elements[Number(parts[3])] : undefined;
  const branch = element?.type === 'branch' && parts[5] === 'branches' ? element.data.branches[Number(parts[6])] : undefined;
  const field = parts[parts.length - 1] ?? '';
  const where = [
    video?.video?.title ?? `Video ${Number(parts[1]) + 1}`,
    element ? (element.type === 'text' ? 'Text element' : 'Branch element') : null,
    branch ? branch.name : null,
    field && !/^\d+$/.test(field) ? field.replace(/([A-Z])/g, ' $1').toLowerCase() : null,
  ].filter(Boolean);
  return { editorId: video?.editor_id ?? null, elementId: element?.id ?? null, branchId: branch?.id ?? null, label: where.join(' › ') };
};
