import { useEffect, useState, useSyncExternalStore } from 'react';
import { MESSAGES, type CaptionCue } from '@branchify/shared';
import type { PlaybackStore } from '../runtime/playback';
import type { PlayerCaptionTrack } from '../runtime/types';
import { MenuButton } from '../view/MenuButton';
import { usePlayback } from '../view/usePlayback';
import { CaptionChoice, captionItems, selectedItem } from './choice';
import { activeCues, cueNodes, loadCues } from './cues';
import './captions.css';

/**
 * Captions, loaded only for a video with caption tracks (its own uploads, or its provider's): the
 * CC menu in the controls and the cue layer above the funnel's elements. Uploaded tracks are drawn
 * here from their WebVTT, for every provider; YouTube's and Vimeo's own tracks are switched
 * through their players.
 */
export { CaptionChoice };

interface CaptionsProps {
  store: PlaybackStore;
  choice: CaptionChoice;
  tracks: readonly PlayerCaptionTrack[];
}

/** The menu's items and the one the viewer's choice selects. */
const useItems = ({ store, choice, tracks }: CaptionsProps) => {
  const language = useSyncExternalStore(choice.subscribe, choice.get, choice.get);
  const providerTracks = usePlayback(store, (s) => s.textTracks);
  const items = captionItems(tracks, providerTracks, MESSAGES.captionsOff);
  return { items, selected: selectedItem(items, language), providerTracks };
};

const CC =
  'M19 4H5a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2zm-8 7H9.5v-.5h-2v3h2V13H11v1a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1v-4a1 1 0 0 1 1-1h3a1 1 0 0 1 1 1zm7 0h-1.5v-.5h-2v3h2V13H18v1a1 1 0 0 1-1 1h-3a1 1 0 0 1-1-1v-4a1 1 0 0 1 1-1h3a1 1 0 0 1 1 1z';

/** The CC button and its menu of radio items: Off and each track (the control bar's menu behaviour). */
export const CaptionsMenu = (props: CaptionsProps) => {
  const { items, selected } = useItems(props);
  return (
    <MenuButton
      label={`Captions: ${selected.label}`}
      menuLabel="Captions"
      className={`bf-cc${selected.kind === 'off' ? '' : ' bf-cc-on'}`}
      menuClassName="bf-cc-menu"
      icon={
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d={CC} fill="currentColor" />
        </svg>
      }
      items={items.map((item) => ({ key: item.key, label: item.label, lang: item.language, checked: item === selected }))}
      empty={MESSAGES.captionsOff}
      onChoose={(index) => props.choice.set(items[index]!.language)}
    />
  );
};

/** The cues of the chosen uploaded track at the current time, drawn as text above the elements. */
const CueLayer = ({ store, track }: { store: PlaybackStore; track: PlayerCaptionTrack }) => {
  const [cues, setCues] = useState<CaptionCue[] | null>(null);
  useEffect(() => {
    let live = true;
    setCues(null);
    loadCues(track.url).then(
      (c) => live && setCues(c),
      () => live && setCues([]),
    );
    return () => {
      live = false;
    };
  }, [track.url]);
  const on = usePlayback(store, (s) => (cues ? activeCues(cues, s.time) : ''));
  if (!cues || !on) return null;
  return (
    <div className="bf-captions" lang={track.language} data-testid="captions">
      {on.split(',').map((i) => (
        <span key={i} className="bf-cue">
          {cueNodes(cues[Number(i)]!.text)}
        </span>
      ))}
    </div>
  );
};

/**
 * What the choice means for the video on screen: an uploaded track's cues drawn here, or the
 * provider's own captions switched on (and off again for anything else).
 */
export const CaptionsLayer = (props: CaptionsProps) => {
  const { selected, providerTracks } = useItems(props);
  const { store } = props;
  const providerLanguage = selected.kind === 'provider' ? selected.language : null;
  const hasProviderTracks = providerTracks.length > 0;
  useEffect(() => {
    if (providerLanguage || hasProviderTracks) store.setTextTrack(providerLanguage);
  }, [store, providerLanguage, hasProviderTracks]);
  return selected.kind === 'file' ? <CueLayer store={store} track={selected.track} /> : null;
};
