import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';

/** One radio item of a control-bar menu. */
export interface MenuItem {
  key: string;
  label: string;
  /** The item's language, when it names one (a caption track). */
  lang?: string | null;
  checked: boolean;
}

/** The open menu: a radio item per choice; the arrows, Home and End move, Escape closes, Tab leaves. */
const MenuList = (props: {
  id: string;
  label: string;
  className?: string;
  items: readonly MenuItem[];
  /** What the menu says when it has no items. */
  empty: string;
  focus: number;
  setFocus: (at: number) => void;
  onChoose: (index: number) => void;
  onClose: (refocus: boolean) => void;
}) => {
  const { items, focus, setFocus } = props;
  const itemRefs = useRef<Array<HTMLElement | null>>([]);
  // Focus goes to the item as the menu is drawn (not a frame later), so the next key already lands in the menu.
  useLayoutEffect(() => {
    itemRefs.current[focus]?.focus();
  }, [focus]);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Tab') return props.onClose(false);
    // The menu's keys stay in the menu (the player's own shortcuts seek and toggle on arrows and Space).
    e.stopPropagation();
    const last = Math.max(0, items.length - 1);
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
    <div className={`bf-menu${props.className ? ` ${props.className}` : ''}`} id={props.id} role="menu" aria-label={props.label} onKeyDown={onKey}>
      {items.length ? (
        items.map((item, i) => (
          <button
            key={item.key}
            ref={(el) => void (itemRefs.current[i] = el)}
            type="button"
            role="menuitemradio"
            aria-checked={item.checked}
            tabIndex={i === focus ? 0 : -1}
            lang={item.lang ?? undefined}
            className="bf-focusable"
            onClick={() => props.onChoose(i)}
          >
            {item.label}
          </button>
        ))
      ) : (
        // A menu holds items: with nothing to choose, one that says so and does nothing.
        <div ref={(el) => void (itemRefs.current[0] = el)} role="menuitem" aria-disabled="true" tabIndex={0} className="bf-menu-empty bf-focusable">
          {props.empty}
        </div>
      )}
    </div>
  );
};

/** While `open`: a press outside `wrap` calls `close`. */
const usePressOutside = (open: boolean, wrap: RefObject<HTMLElement>, close: () => void) => {
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!wrap.current?.contains(e.target as Node)) latest.current();
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open, wrap]);
};

/**
 * A control-bar button with a menu of radio items (the captions and the playback speed). The
 * button opens it with a click, Enter, Space or the arrow keys, on the checked item (ArrowUp: the
 * last); in it the arrows, Home and End move, Enter or Space chooses, Escape closes; focus returns
 * to the button. A press outside closes it.
 */
export const MenuButton = (props: {
  /** The button's accessible name. */
  label: string;
  /** The menu's accessible name. */
  menuLabel: string;
  icon: ReactNode;
  className?: string;
  menuClassName?: string;
  items: readonly MenuItem[];
  empty: string;
  onChoose: (index: number) => void;
}) => {
  const { items } = props;
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

  usePressOutside(open, wrap, () => setOpen(false));

  const current = Math.max(
    0,
    items.findIndex((item) => item.checked),
  );
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
    show(e.key === 'ArrowUp' ? Math.max(0, items.length - 1) : current);
  };

  return (
    <div className="bf-menu-wrap" ref={wrap}>
      <button
        ref={button}
        type="button"
        className={`bf-ctl bf-focusable${props.className ? ` ${props.className}` : ''}`}
        aria-label={props.label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? hide(false) : show(current))}
        onKeyDown={onButtonKey}
      >
        {props.icon}
      </button>
      {open && (
        <MenuList
          id={id}
          label={props.menuLabel}
          className={props.menuClassName}
          items={items}
          empty={props.empty}
          focus={focus}
          setFocus={setFocus}
          onChoose={(index) => {
            props.onChoose(index);
            hide(true);
          }}
          onClose={(refocus) => (refocus ? hide(true) : setOpen(false))}
        />
      )}
    </div>
  );
};
