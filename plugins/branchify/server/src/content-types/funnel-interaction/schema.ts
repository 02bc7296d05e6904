import { BRANCH_TARGET_MAX, ID_MAX } from '@branchify/shared';
import { decimal, flag, defineSchema, enumeration, int, json, ofFunnel, str, textOf } from '../define';

/** A viewer's click, or the element's inaction default taken for them. */
export const INTERACTION_TYPES = ['branch', 'inaction'] as const;

export default defineSchema({
  collectionName: 'branchify_funnel_interactions',
  singularName: 'funnel-interaction',
  pluralName: 'funnel-interactions',
  displayName: 'Funnel interaction',
  internal: true,
  attributes: {
    funnel_id: int({ required: true }),
    funnel: ofFunnel(),
    /** The view's client-generated id (its event_id). */
    view_id: str(),
    event_id: str({ required: true }),
    video_id: textOf(ID_MAX),
    node_id: textOf(ID_MAX),
    /** What the branch led to: a video's editor id, the branch's link as the funnel has it, or `timestamp:<s>`. */
    connected_node: textOf(BRANCH_TARGET_MAX),
    type: enumeration(INTERACTION_TYPES, { default: 'branch' }),
    player_time: decimal(),
    /** An inaction: whether the viewer had paused the countdown before it ran out (NULL on clicks). */
    countdown_paused: flag(),
    /** The funnel's variables after the click (declared ones only); NULL when the funnel has none. */
    variables: json(),
    /** True once the counters include the row (set by the writer that stores it); NULL on rows stored without counters. */
    counted: flag(),
  },
  indexes: [
    { name: 'branchify_funnel_interactions_event_uq', columns: ['event_id'], type: 'unique' },
    { name: 'branchify_funnel_interactions_funnel_idx', columns: ['funnel_id', 'created_at'] },
  ],
});
