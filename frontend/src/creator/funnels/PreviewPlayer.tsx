import { useEffect, useMemo } from 'react';
import { Player, createLogic, needsLogic, type PlayerPayload } from '@branchify/player';
import { loadFontsOf } from '../editor/fonts';

/**
 * A funnel played inside the app as a viewer sees it, through the player itself: variables hold
 * their defaults (the link and the embedding page have no say here) and the elements' fonts are
 * loaded. Every preview in the app (the editor's, the funnel's preview page) plays through this.
 */
export const PreviewPlayer = ({ payload }: { payload: PlayerPayload }) => {
  const logic = useMemo(() => (needsLogic(payload) ? createLogic(payload.variables ?? []) : undefined), [payload]);
  useEffect(() => loadFontsOf(payload.videos), [payload]);
  return <Player payload={payload} inline logic={logic} />;
};
