/**
 * @branchify/player as a library (the web app imports these TypeScript sources through the npm
 * workspace; Vite compiles them). The /player page's own entry is src/page/main.tsx and does not
 * import this file, so nothing here reaches the public page's bundle.
 *
 * - VideoPlayer: one video with the player's loader, controls and the spec's error messages.
 * - Player: a whole funnel (the /player page's view).
 * - PlaybackStore / usePlayback / PlayerShell: one player's playback state, its React reading and
 *   the frame both players share (an editor's timeline drives the same store).
 * - loadProvider / videoProblem / LOADERS: the lazy provider adapters behind both.
 */
import type { AdapterFactory } from './providers/types';
import { factoryFor } from './providers';
import type { PlayerVideo } from './runtime/types';

export { VideoPlayer, type VideoPlayerProps } from './view/VideoPlayer';
export { Player, type PlayerHooks } from './view/Player';
export { Controls, type ControlsProps } from './view/Controls';
export { PlayerShell, type PlayerShellProps } from './view/PlayerShell';
export { PlaybackStore, type FrameScheduler, type FullscreenTarget, type PlaybackOptions, type PlaybackState } from './runtime/playback';
export { usePlayback } from './view/usePlayback';
export { formatTime, fontStyle } from './view/style';
export {
  DESIGN_H,
  DESIGN_W,
  branchButtonStyle,
  branchClassName,
  branchImageSource,
  branchLabel,
  branchPosition,
  designSize,
  overlayStyle,
  promptStyle,
  skipStyle,
  textPosition,
  textStyle,
} from './view/element-style';
export { hasSkip, isWithin, visibleAt } from './runtime/timeline';
export { LOADERS, factoryFor, loaderFor, videoProblem } from './providers';
export type { AdapterFactory, ProviderAdapter, ProviderEvent, ProviderLoader } from './providers';
export type { AdapterOptions } from './providers/types';
export { RATES } from './providers/types';
export type { LastViewState, PlayerPayload, PlayerVideo } from './runtime/types';

/**
 * The adapter factory for a video: checks it, then loads only its
 * provider's code (YouTube's IFrame API, @vimeo/player, the Adilo bridge or the `<video>` adapter).
 * Rejects with the spec's message: 'Could not load player, try again later', the Vimeo message, …
 */
export const loadProvider = (video: PlayerVideo): Promise<AdapterFactory> => factoryFor(video);
