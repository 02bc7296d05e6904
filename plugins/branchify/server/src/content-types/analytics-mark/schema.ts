import { defineSchema, int, ofFunnel, str, text } from '../define';

/** What each view was already counted for (an edge taken, a video reached): counted once per view. */
export default defineSchema({
  collectionName: 'branchify_analytics_marks',
  singularName: 'analytics-mark',
  pluralName: 'analytics-marks',
  displayName: 'Analytics mark',
  internal: true,
  attributes: {
    funnel_id: int({ required: true }),
    funnel: ofFunnel(),
    view_key: str({ required: true }),
    mark: text({ required: true }),
  },
  indexes: [
    { name: 'branchify_analytics_marks_uq', columns: ['view_key', 'mark'], type: 'unique' },
    { name: 'branchify_analytics_marks_funnel_idx', columns: ['funnel_id'] },
  ],
});
