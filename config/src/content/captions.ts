/**
 * Caption tracks: the limits, the checks an uploaded `.vtt` or `.srt` file passes (each refusal
 * names the line that fails), the SRT → WebVTT conversion, and the cue reader the player uses.
 * Pure functions on strings, shared by the server (upload) and the player (display).
 */

/** What a video's caption tracks may hold. */
export const CAPTION_LIMITS = {
  /** One file, as uploaded (before conversion). */
  maxFileKb: 512,
  maxTracksPerVideo: 8,
  maxCues: 10_000,
  maxLabelLength: 64,
  /** A cue longer than a day is a typo. */
  maxSeconds: 86_400,
} as const;

/** The multipart field a caption file comes in. */
export const CAPTION_FILE_FIELD = 'file';

/** Where a caption file could not be read: a 1-based line and what is wrong there. */
export interface CaptionProblem {
  line: number;
  message: string;
}

/** One cue as the player shows it: seconds, and the cue text (WebVTT markup still in it). */
export interface CaptionCue {
  start: number;
  end: number;
  text: string;
}

export type CaptionParse = { ok: true; vtt: string; cues: CaptionCue[] } | { ok: false; problem: CaptionProblem };

/** The sentence a refusal shows: `Line 7: …`. */
export const captionProblemText = (p: CaptionProblem): string => `Line ${p.line}: ${p.message}`;

const TIMESTAMP = /^(?:(\d{1,3}):)?([0-5]\d):([0-5]\d)[.,](\d{3})$/;
/** `00:01.000 --> 00:04.000 align:start` (SRT writes commas and always has hours). */
const TIMING = /^(\S+)[ \t]+-->[ \t]+(\S+)(?:[ \t]+(.*))?$/;
/** Cue settings WebVTT defines; anything else is dropped on the way in. */
const SETTING =
  /^(?:vertical:(?:rl|lr)|line:-?\d+(?:\.\d+)?%?(?:,(?:start|center|end))?|position:\d+(?:\.\d+)?%(?:,(?:line-left|center|line-right))?|size:\d+(?:\.\d+)?%|align:(?:start|center|end|left|right))$/;

const LOOKS_LIKE_TIMING = /^\s*\d[\d:.,]*\s*(?:-+>?|=+>|→)\s*\d/;

const seconds = (stamp: string): number | null => {
  const m = TIMESTAMP.exec(stamp);
  if (!m) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Seconds as a WebVTT timestamp, `hh:mm:ss.ttt`. */
export const vttTimestamp = (value: number): string => {
  const ms = Math.round(value * 1000);
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};

/** Text with every line ending as `\n` and no byte-order mark. */
const lines = (source: string): string[] =>
  source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');

/** Control characters other than tab have no place in captions (a binary file renamed .vtt). */
// eslint-disable-next-line no-control-regex -- the control characters are what is looked for
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

const blank = (line: string | undefined) => line === undefined || line.trim() === '';

interface Reader {
  lines: string[];
  /** 0-based index of the next line. */
  at: number;
}

const problem = (line: number, message: string): { ok: false; problem: CaptionProblem } => ({ ok: false, problem: { line, message } });

/** The lines of one block (up to a blank line), with the 1-based number of its first line. */
const nextBlock = (r: Reader): { first: number; body: string[] } | null => {
  while (r.at < r.lines.length && blank(r.lines[r.at])) r.at += 1;
  if (r.at >= r.lines.length) return null;
  const first = r.at + 1;
  const body: string[] = [];
  while (r.at < r.lines.length && !blank(r.lines[r.at])) body.push(r.lines[r.at++]!);
  return { first, body };
};

/** A timing line read: the two times (checked), and the WebVTT settings kept. */
const readTiming = (
  line: string,
  lineNo: number,
  format: 'vtt' | 'srt',
): { start: number; end: number; settings: string } | { ok: false; problem: CaptionProblem } => {
  const example = format === 'srt' ? '00:00:01,000 --> 00:00:04,000' : '00:00:01.000 --> 00:00:04.000';
  const m = TIMING.exec(line.trim());
  if (!m) return problem(lineNo, `expected a cue timing such as ${example}, found "${line.trim().slice(0, 60)}".`);
  const start = seconds(m[1]!);
  const end = seconds(m[2]!);
  if (start === null) return problem(lineNo, `"${m[1]!.slice(0, 20)}" is not a time; write it as ${example.split(' ')[0]}.`);
  if (end === null) return problem(lineNo, `"${m[2]!.slice(0, 20)}" is not a time; write it as ${example.split(' ')[0]}.`);
  if (end <= start) return problem(lineNo, 'the cue ends before it starts.');
  if (end > CAPTION_LIMITS.maxSeconds) return problem(lineNo, 'the cue ends more than 24 hours into the video.');
  const settings = format === 'vtt' ? (m[3] ?? '').split(/[ \t]+/).filter((s) => SETTING.test(s)) : [];
  return { start, end, settings: settings.join(' ') };
};

/** The cue text lines: no timing arrow inside (a missing blank line), no control characters. */
const checkText = (body: readonly string[], firstLineNo: number): CaptionProblem | null => {
  for (let i = 0; i < body.length; i += 1) {
    if (body[i]!.includes('-->')) return { line: firstLineNo + i, message: 'a cue timing inside a cue’s text; separate cues with a blank line.' };
    if (CONTROL.test(body[i]!)) return { line: firstLineNo + i, message: 'contains a character that is not text.' };
  }
  return null;
};

interface CueOut extends CaptionCue {
  id: string | null;
  settings: string;
}

/** The file again, as plain WebVTT: the header, then each cue (notes, styles and regions dropped). */
const serialise = (cues: readonly CueOut[]): string =>
  `WEBVTT\n\n${cues
    .map((c) => `${c.id ? `${c.id}\n` : ''}${vttTimestamp(c.start)} --> ${vttTimestamp(c.end)}${c.settings ? ` ${c.settings}` : ''}\n${c.text}`)
    .join('\n\n')}\n`;

const finish = (cues: CueOut[], lastLine: number): CaptionParse => {
  if (!cues.length) return problem(lastLine, 'the file ends without a single cue.');
  return { ok: true, vtt: serialise(cues), cues: cues.map(({ start, end, text }) => ({ start, end, text })) };
};

/**
 * Checks a WebVTT file: the WEBVTT header, then cues (an optional identifier, a timing line,
 * text), NOTE, STYLE and REGION blocks. Answers the file as plain WebVTT (styles and regions
 * dropped: the player draws cues itself), or the first line that fails.
 */
export const parseWebVtt = (source: string): CaptionParse => {
  const r: Reader = { lines: lines(source), at: 0 };
  const header = r.lines[0] ?? '';
  if (!/^WEBVTT(?:[ \t].*)?$/.test(header)) return problem(1, 'a WebVTT file starts with the line WEBVTT.');
  // The header block runs to the first blank line.
  while (r.at < r.lines.length && !blank(r.lines[r.at])) {
    if (r.lines[r.at]!.includes('-->')) return problem(r.at + 1, 'add a blank line between the WEBVTT header and the first cue.');
    r.at += 1;
  }
  const cues: CueOut[] = [];
  for (let block = nextBlock(r); block; block = nextBlock(r)) {
    const { first, body } = block;
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(body[0]!)) {
      if (body[0]!.startsWith('NOTE')) continue;
      if (cues.length) return problem(first, `${body[0]!.split(/[ \t]/)[0]} blocks must come before the first cue.`);
      continue;
    }
    // A first line that is a timing gone wrong (`00:01.000 -> 00:02.000`) is reported as one, not taken for an identifier.
    const hasId = !body[0]!.includes('-->') && !LOOKS_LIKE_TIMING.test(body[0]!);
    const timingAt = hasId ? 1 : 0;
    if (hasId && body.length < 2) return problem(first + 1, 'expected a cue timing such as 00:00:01.000 --> 00:00:04.000 after the cue identifier.');
    if (hasId && CONTROL.test(body[0]!)) return problem(first, 'contains a character that is not text.');
    const timing = readTiming(body[timingAt]!, first + timingAt, 'vtt');
    if ('ok' in timing) return timing;
    const text = body.slice(timingAt + 1);
    const bad = checkText(text, first + timingAt + 1);
    if (bad) return { ok: false, problem: bad };
    cues.push({ id: hasId ? body[0]!.trim().slice(0, 100) : null, start: timing.start, end: timing.end, settings: timing.settings, text: text.join('\n') });
    if (cues.length > CAPTION_LIMITS.maxCues) return problem(first, `a track holds at most ${CAPTION_LIMITS.maxCues} cues.`);
  }
  return finish(cues, r.lines.length);
};

/**
 * Reads a SubRip (.srt) file — blocks of a counter, `00:00:01,000 --> 00:00:04,000` and text —
 * and answers it as WebVTT, or the first line that fails. The counter is optional (some tools
 * leave it out); SRT's <b>, <i> and <u> carry over, other tags show as text would.
 */
export const parseSrt = (source: string): CaptionParse => {
  const r: Reader = { lines: lines(source), at: 0 };
  const cues: CueOut[] = [];
  for (let block = nextBlock(r); block; block = nextBlock(r)) {
    const { first, body } = block;
    const numbered = /^\d+$/.test(body[0]!.trim());
    if (!numbered && !body[0]!.includes('-->'))
      return problem(first, `expected a cue number or a timing such as 00:00:01,000 --> 00:00:04,000, found "${body[0]!.trim().slice(0, 60)}".`);
    const timingAt = numbered ? 1 : 0;
    if (body.length <= timingAt) return problem(first + 1, 'expected a cue timing such as 00:00:01,000 --> 00:00:04,000 after the cue number.');
    const timing = readTiming(body[timingAt]!, first + timingAt, 'srt');
    if ('ok' in timing) return timing;
    const text = body.slice(timingAt + 1);
    const bad = checkText(text, first + timingAt + 1);
    if (bad) return { ok: false, problem: bad };
    cues.push({ id: null, start: timing.start, end: timing.end, settings: '', text: text.join('\n') });
    if (cues.length > CAPTION_LIMITS.maxCues) return problem(first, `a track holds at most ${CAPTION_LIMITS.maxCues} cues.`);
  }
  return finish(cues, r.lines.length);
};

/** The kind of caption file a name says it is. */
export const captionFormat = (filename: string | null | undefined): 'vtt' | 'srt' | null => {
  const m = /\.(vtt|srt)$/i.exec(filename ?? '');
  return m ? (m[1]!.toLowerCase() as 'vtt' | 'srt') : null;
};

/**
 * Reads an uploaded caption file's bytes: UTF-8 text (a byte that is not names its line), then
 * WebVTT or SRT by its name.
 */
export const parseCaptionFile = (bytes: Uint8Array, format: 'vtt' | 'srt'): CaptionParse => {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const loose = new TextDecoder('utf-8').decode(bytes);
    const at = loose.indexOf('\uFFFD');
    return problem(lines(loose.slice(0, Math.max(0, at))).length, 'is not UTF-8 text; save the file as UTF-8 and upload it again.');
  }
  return format === 'srt' ? parseSrt(text) : parseWebVtt(text);
};

/**
 * The cues of a stored track (already checked on upload), for the player: lenient, a cue it
 * cannot read is skipped.
 */
export const readCues = (vtt: string): CaptionCue[] => {
  const parsed = parseWebVtt(vtt);
  return parsed.ok ? parsed.cues : [];
};

/** A BCP-47 language tag in its canonical case (`pt-br` → `pt-BR`), or null when it is not one. */
export const canonicalLanguage = (tag: string): string | null => {
  const trimmed = tag.trim();
  if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(trimmed) || trimmed.length > 35) return null;
  try {
    return Intl.getCanonicalLocales(trimmed)[0] ?? null;
  } catch {
    return null;
  }
};

/** A caption track as the API and the player payload show it. */
export interface CaptionTrackResource {
  id: number;
  language: string;
  label: string;
  /** The WebVTT file: public by its unguessable key, like a funnel's images. */
  url: string;
  cues: number;
  created_at: string | null;
}

/** What the player payload lists of a track. */
export type PlayerCaptionTrack = Pick<CaptionTrackResource, 'id' | 'language' | 'label' | 'url'>;
