/**
 * The funnel document being edited: its types, the store that changes it (with undo and the
 * plan's limits) and its conversion from and to the API's funnel.
 */
export { DocumentStore } from './store';
export { fromResource, toRequestBody } from './resource';
export {
  DESIGN_SIZE,
  type BranchElement,
  type EditorDocument,
  type EditorLimits,
  type EditorState,
  type EditorVideo,
  type MapPosition,
  type TextElement,
} from './types';
