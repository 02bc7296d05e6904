import { ID_MAX } from '@branchify/shared';
import { decimal, flag, defineSchema, int, json, ofFunnel, str, textOf } from '../define';

export default defineSchema({
  collectionName: 'branchify_funnel_views',
  singularName: 'funnel-view',
  pluralName: 'funnel-views',
  displayName: 'Funnel view',
  internal: true,
  attributes: {
    funnel_id: int({ required: true }),
    funnel: ofFunnel(),
    event_id: str({ required: true }),
    viewer_token: str(),
    watch_time: decimal(),
    last_watch_time: decimal(),
    editor_id: textOf(ID_MAX),
    /** Furthest point reached per video: { [editor_id]: { max, duration } } (completion analytics). */
    progress: json(),
    /** The viewer's variables as last reported (declared ones only): what resume restores. */
    variables: json(),
    /** True once the counters include the row (set by the writer that stores it); NULL on rows stored without counters. */
    counted: flag(),
  },
  indexes: [
    { name: 'branchify_funnel_views_event_uq', columns: ['event_id'], type: 'unique' },
    /** Covers the report's scan (views, unique viewers, watch time) without reading the rows. */
    { name: 'branchify_funnel_views_report_idx', columns: ['funnel_id', 'created_at', 'viewer_token', 'watch_time'] },
    { name: 'branchify_funnel_views_viewer_idx', columns: ['viewer_token'] },
  ],
});
