import * as ui from './ui';

/**
 * The captions UI already in the bundle: the web app (its vite config points `./load` here) takes it
 * with the player, whose pages it loads lazily already; a dynamic import would split React's JSX
 * runtime into a chunk of its own on every first screen.
 */
export const loadCaptionsUI = () => Promise.resolve(ui);
