import { useEffect, useId, useLayoutEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { MESSAGES, type CaptionCue } from '@branchify/shared';
import type { PlaybackStore } from '../runtime/playback';
import type { PlayerCaptionTrack } from '../runtime/types';
import { usePlayback } from '../view/usePlayback';
import { CaptionChoice, captionItems, selectedItem, type CaptionItem } from './choice';
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

/** The open menu: a radio item per choice; the arrows, Home and End move, Escape closes, Tab leaves. */
const MenuList = (props: {
  id: string;
  items: readonly CaptionItem[];
  selected: CaptionItem;
  focus: number;
  setFocus: (at: number) => void;
  onChoose: (item: CaptionItem) => void;
  onClose: (refocus: boolean) => void;
}) => {
  const { items, selected, focus, setFocus } = props;
  const itemRefs = useRef<Array<HTMLButtonElement | null>>([]);
  // Focus goes to the item as the menu is drawn (not a frame later), so the next key already lands in the menu.
  useLayoutEffect(() => {
    itemRefs.current[focus]?.focus();
  }, [focus]);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Tab') return props.onClose(false);
    // The menu's keys stay in the menu (the player's own shortcuts seek and toggle on arrows and Space).
    e.stopPropagation();
    const last = items.length - 1;
    const moves: Record<string, number> = { ArrowDown: focus === last ? 0 : focus + 1, ArrowUp: focus === 0 ? last : focus - 1, Home: 0, End: last };
    if (e.key in moves) {
      // Focus moves at once, so a key pressed right after lands on the new item.
      itemRefs.current[moves[e.key]!]?.focus();
      setFocus(moves[e.key]!);
    } else if (e.key === 'Escape') props.onClose(true);
    else if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return; // Enter and Space press the item itself
    e.preventDefault();
  };
  return (
    <div className="bf-menu bf-cc-menu" id={props.id} role="menu" aria-label="Captions" onKeyDown={onKey}>
      {items.map((item, i) => (
        <button
          key={item.key}
          ref={(el) => void (itemRefs.current[i] = el)}
          type="button"
          role="menuitemradio"
          aria-checked={item === selected}
          tabIndex={i === focus ? 0 : -1}
          lang={item.language ?? undefined}
          className="bf-focusable"
          onClick={() => props.onChoose(item)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
};

/**
 * The CC button and its menu (a menu of radio items: Off and each track). The button opens it with
 * a click, Enter, Space or the arrow keys; in it the arrows, Home and End move, Enter or Space
 * chooses, Escape closes; focus returns to the button.
 */
export const CaptionsMenu = (props: CaptionsProps) => {
  const { items, selected } = useItems(props);
  const [open, setOpen] = useState(false);
  const [focus, setFocus] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const id = useId();

  const show = (at: number) => {
    setFocus(at);
    setOpen(true);
  };
  const hide = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  // A press outside closes it.
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  const current = Math.max(0, items.indexOf(selected));
  const onButtonKey = (e: KeyboardEvent) => {
    // Escape closes the open menu wherever focus is in the control.
    if (open && e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      return hide(true);
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    e.stopPropagation();
    show(e.key === 'ArrowUp' ? items.length - 1 : current);
  };

  return (
    <div className="bf-menu-wrap" ref={wrap}>
      <button
        ref={button}
        type="button"
        className={`bf-ctl bf-focusable bf-cc${selected.kind === 'off' ? '' : ' bf-cc-on'}`}
        aria-label={`Captions: ${selected.label}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? hide(false) : show(current))}
        onKeyDown={onButtonKey}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d={CC} fill="currentColor" />
        </svg>
      </button>
      {open && (
        <MenuList
          id={id}
          items={items}
          selected={selected}
          focus={focus}
          setFocus={setFocus}
          onChoose={(item) => {
            props.choice.set(item.language);
            hide(true);
          }}
          onClose={(refocus) => (refocus ? hide(true) : setOpen(false))}
        />
      )}
    </div>
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
