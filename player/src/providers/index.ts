import { isVideoProvider, vimeoId, youtubeId, MESSAGES } from '@branchify/shared';
import type { PlayerVideo } from '../runtime/types';
import { createGeneric } from './generic';
import type { AdapterFactory, ProviderLoader } from './types';

export type { AdapterFactory, ProviderAdapter, ProviderEvent, ProviderLoader } from './types';

/**
 * The providers in the order they are tried (`find(canPlay)`). The generic `<video>` adapter is
 * tiny and in the main bundle; YouTube's IFrame API (a script tag), @vimeo/player and the Adilo
 * bridge are separate chunks fetched only when a funnel's video needs them.
 */
export const LOADERS: readonly ProviderLoader[] = [
  { name: 'youtube', canPlay: (v) => v.provider === 'youtube', load: () => import('./youtube').then((m) => m.createYouTube) },
  { name: 'vimeo', canPlay: (v) => v.provider === 'vimeo', load: () => import('./vimeo').then((m) => m.createVimeo) },
  { name: 'adilo', canPlay: (v) => v.provider === 'adilo', load: () => import('./adilo').then((m) => m.createAdilo) },
  { name: 'generic', canPlay: (v) => v.provider === 'generic', load: () => Promise.resolve(createGeneric) },
];

/** The spec's checks before a player is built: null when the video can be played. */
export const videoProblem = (video: Pick<PlayerVideo, 'provider' | 'embed_url' | 'source_url' | 'external_id'> | null | undefined): string | null => {
  if (!video || !video.provider || !(video.embed_url || video.source_url)) return MESSAGES.couldntGetPlayer;
  if (!isVideoProvider(video.provider)) return MESSAGES.providerNotLoaded;
  if (video.provider === 'youtube' && !(video.external_id && youtubeId(video.external_id)) && !youtubeId(video.embed_url ?? '')) return MESSAGES.invalidVideo;
  if (video.provider === 'vimeo' && !vimeoId(video.embed_url ?? '') && !(video.external_id && vimeoId(video.external_id))) return MESSAGES.invalidVideo;
  return null;
};

export const loaderFor = (video: PlayerVideo): ProviderLoader | undefined => LOADERS.find((l) => l.canPlay(video));

/** Loads the adapter factory for a video, or rejects with the spec's message. */
export const factoryFor = async (video: PlayerVideo): Promise<AdapterFactory> => {
  const problem = videoProblem(video);
  if (problem) throw new Error(problem);
  const loader = loaderFor(video);
  if (!loader) throw new Error(MESSAGES.providerNotLoaded);
  try {
    return await loader.load();
  } catch {
    throw new Error(video.provider === 'vimeo' ? MESSAGES.vimeoLoadFailed : MESSAGES.playerLoadFailed);
  }
};
