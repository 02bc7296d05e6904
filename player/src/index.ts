/**
 * @branchify/player as a library (the web app imports these TypeScript sources through the npm
 * workspace; Vite compiles them). The /player page's own entry is src/page/main.tsx and does not
 * import this file, so nothing here reaches the public page's bundle.
 *
 * - VideoPlayer: one video with the player's loader, controls and the spec's error messages.
 * - Player: a whole funnel (the /player page's view).
 * - PlaybackStore / usePlayback: one player's playback state and its React reading (an editor's
 *   timeline drives the same store).
 * - the element styles and timeline rules, so the editor draws elements as viewers see them.
 */

export { VideoPlayer } from './view/VideoPlayer';
export { Player } from './view/Player';
export { PlaybackStore } from './runtime/playback';
export { usePlayback } from './view/usePlayback';
export {
  branchButtonStyle,
  branchClassName,
  branchImageSource,
  branchPosition,
  overlayStyle,
  promptStyle,
  skipStyle,
  textPosition,
  textStyle,
} from './view/element-style';
export { hasSkip, isWithin } from './runtime/timeline';
export { needsLogic } from './runtime/logic-hooks';
export { createLogic } from './logic';
export type { PlayerPayload, PlayerVideo } from './runtime/types';
