import { DEFAULT_FONT_FAMILY, fontDefinition, type FontFamilyName, type FunnelElement, type FunnelResource } from '@branchify/shared';
import type { EditorDocument } from './types';

/** A font outside the served catalogue (saved before it existed) becomes the default: it could not be shown anyway. */
const servedFont = (family: string | undefined): FontFamilyName => (fontDefinition(family) ? (family as FontFamilyName) : DEFAULT_FONT_FAMILY);

const withServedFonts = (element: FunnelElement): FunnelElement => {
  if (element.type === 'text') return { ...element, data: { ...element.data, fontFamily: servedFont(element.data.fontFamily) } };
  return {
    ...element,
    data: {
      ...element.data,
      prompt: { ...element.data.prompt, fontFamily: servedFont(element.data.prompt.fontFamily) },
      branches: element.data.branches.map((b) => ({ ...b, standard: { ...b.standard, font: servedFont(b.standard.font) } })),
    },
  };
};

/** The document to edit from the funnel as the API answers it. */
export const fromResource = (funnel: FunnelResource): EditorDocument => ({
  title: funnel.title,
  description: funnel.description ?? '',
  settings: { enable_resume_play: Boolean(funnel.settings?.enable_resume_play), allow_indexing: Boolean(funnel.settings?.allow_indexing) },
  variables: funnel.variables ?? [],
  videos: funnel.videos.map((v) => ({
    id: v.id,
    editor_id: v.editor_id,
    elements: v.elements.map(withServedFonts),
    video: v.video,
    ...(v.map ? { map: v.map } : {}),
  })),
});

/** What PUT funnels/{id} takes: the whole document, without the library details. */
export const toRequestBody = (doc: EditorDocument) => ({
  title: doc.title,
  description: doc.description,
  settings: doc.settings,
  variables: doc.variables,
  videos: doc.videos.map((v) => ({ id: v.id, editor_id: v.editor_id, elements: v.elements, ...(v.map ? { map: v.map } : {}) })),
});
