import { useEffect, useMemo, useState } from 'react';
import type { PlaybackStore } from '../runtime/playback';
import type { PlayerCaptionTrack } from '../runtime/types';
import { usePlayback } from './usePlayback';
import { loadCaptionsUI } from '../captions/load';

type CaptionsModule = typeof import('../captions/ui');
let pending: Promise<CaptionsModule> | null = null;

/**
 * The captions code (menu, cue parsing and drawing) for a video with caption tracks — its own
 * uploads, or its provider's — loaded by dynamic import the first time one plays: a funnel without
 * captions never downloads it. Null until then.
 */
export const useCaptions = (tracks: readonly PlayerCaptionTrack[] | undefined, store: PlaybackStore) => {
  const providerTracks = usePlayback(store, (s) => s.textTracks);
  const wanted = Boolean(tracks?.length) || providerTracks.length > 0;
  const [captions, setCaptions] = useState<CaptionsModule | null>(null);
  useEffect(() => {
    if (!wanted || captions) return;
    let live = true;
    (pending ??= loadCaptionsUI()).then(
      (m) => live && setCaptions(m),
      () => void (pending = null),
    );
    return () => {
      live = false;
    };
  }, [wanted, captions]);
  const choice = useMemo(() => (captions ? new captions.CaptionChoice() : null), [captions]);
  return wanted && captions && choice ? { ui: captions, choice, tracks: tracks ?? [] } : null;
};
