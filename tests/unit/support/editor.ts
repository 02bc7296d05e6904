import type { VideoResource } from '@branchify/shared';
import type { EditorDocument } from '../../../frontend/src/creator/editor/document-store';

/** A direct-file library video as the API shows it. */
export const libraryVideo = (id: number, duration: number | null = 120): VideoResource => ({
  id,
  title: `Video ${id}`,
  size: 0,
  thumbnail: null,
  duration,
  provider: 'generic',
  external_id: null,
  embed_url: `https://media.test/${id}.mp4`,
  source: `https://media.test/${id}.mp4`,
  source_url: `https://media.test/${id}.mp4`,
  total_funnels: 0,
  created_at: null,
  updated_at: null,
});

/** A funnel with no videos yet. */
export const emptyDocument = (): EditorDocument => ({
  title: 'Funnel',
  description: '',
  settings: { enable_resume_play: false, allow_indexing: false },
  variables: [],
  videos: [],
});
