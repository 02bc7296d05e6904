import { readCues, type CaptionCue } from '@branchify/shared';
import { createElement, Fragment, type ReactNode } from 'react';

/** Each track's cues, fetched once per page. */
const loaded = new Map<string, Promise<CaptionCue[]>>();

export const loadCues = (url: string): Promise<CaptionCue[]> => {
  let cues = loaded.get(url);
  if (!cues) {
    cues = fetch(url, { credentials: 'omit' })
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`captions ${r.status}`))))
      .then(readCues);
    cues.catch(() => loaded.delete(url));
    loaded.set(url, cues);
  }
  return cues;
};

/** The indexes of the cues showing at `time`, as a key ('' for none). */
export const activeCues = (cues: readonly CaptionCue[], time: number): string => {
  const on: number[] = [];
  for (let i = 0; i < cues.length; i += 1) if (cues[i]!.start <= time && time < cues[i]!.end) on.push(i);
  return on.join(',');
};

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00A0', lrm: '\u200E', rlm: '\u200F' };
const decode = (text: string) =>
  text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });

const STYLE_TAGS = new Set(['b', 'i', 'u']);

/**
 * A cue's text as elements: <b>, <i> and <u> are kept, every other tag (voices, classes,
 * timestamps, anything a file sneaks in) is dropped, entities decoded. Only ever text nodes and
 * those three elements: nothing in a cue runs or loads.
 */
export const cueNodes = (text: string): ReactNode => {
  const root: ReactNode[] = [];
  const stack: Array<{ tag: string; children: ReactNode[] }> = [];
  const top = () => (stack.length ? stack[stack.length - 1]!.children : root);
  let key = 0;
  const close = () => {
    const open = stack.pop()!;
    top().push(createElement(open.tag, { key: key++ }, ...open.children));
  };
  for (const part of text.split(/(<[^>]*>)/)) {
    if (!part) continue;
    const tag = /^<(\/?)([a-z]+)/i.exec(part);
    if (part.startsWith('<') && part.endsWith('>')) {
      const name = tag?.[2]?.toLowerCase() ?? '';
      if (!STYLE_TAGS.has(name)) continue;
      if (tag![1]) {
        if (!stack.some((s) => s.tag === name)) continue;
        while (stack[stack.length - 1]!.tag !== name) close();
        close();
      } else stack.push({ tag: name, children: [] });
      continue;
    }
    const lines = decode(part).split('\n');
    lines.forEach((line, i) => {
      if (i > 0) top().push(createElement('br', { key: key++ }));
      if (line) top().push(line);
    });
  }
  while (stack.length) close();
  return createElement(Fragment, null, ...root);
};
