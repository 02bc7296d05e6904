/** The captions UI, fetched as a chunk of its own the first time a video with tracks plays (the /player page). */
export const loadCaptionsUI = () => import('./ui');
