import { MESSAGES } from '../messages';

/**
 * Video provider parsing shared by the server (validation on save) and the browser (the
 * create-video modal and the player), so both accept exactly the same input.
 */
export const VIDEO_PROVIDERS = ['youtube', 'vimeo', 'adilo', 'generic'] as const;
export type VideoProvider = (typeof VIDEO_PROVIDERS)[number];

/** Labels of the create-video modal's tabs. */
export const PROVIDER_LABELS: Readonly<Record<VideoProvider, string>> = {
  adilo: 'Adilo',
  youtube: 'YouTube',
  vimeo: 'Vimeo',
  generic: 'Custom URL',
};

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{1,12}$/;
const ADILO_ID = /^[A-Za-z0-9_-]{4,64}$/;
const ADILO_HOST = /(^|\.)(adilo\.com|bigcommand\.com)$/i;

export interface ParsedVideoSource {
  provider: VideoProvider;
  /** The provider's id (null for a generic URL). */
  external_id: string | null;
  embed_url: string;
  /** What the user typed, trimmed. */
  source: string;
  /** The direct video URL (generic only). */
  source_url: string | null;
}

export type ParseResult = { ok: true; value: ParsedVideoSource } | { ok: false; message: string };

export const isVideoProvider = (value: unknown): value is VideoProvider => typeof value === 'string' && (VIDEO_PROVIDERS as readonly string[]).includes(value);

/** An absolute http(s) URL, or null. Nothing else (javascript:, data:, relative) is a URL here. */
export const httpUrl = (input: string): URL | null => {
  try {
    const url = new URL(input);
    return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.hostname) ? url : null;
  } catch {
    return null;
  }
};

const YOUTUBE_HOST = /(^|\.)(youtube\.com|youtube-nocookie\.com)$/i;

/**
 * A YouTube id, typed as is or taken from any common URL form: watch?v=, youtu.be/, embed/,
 * shorts/, live/, v/, e/ and attribution links, on www., m., music. and youtube-nocookie.com.
 * (get-video-id was tried: its CommonJS build is shipped under "type": "module" and loads empty
 * from require(), see docs/decisions/013-content-shared-model-in-branchify-shared.md.)
 */
export const youtubeId = (input: string): string | null => {
  const value = input.trim();
  if (YOUTUBE_ID.test(value)) return value;
  const url = httpUrl(value);
  if (!url) return null;
  let candidate: string | null | undefined;
  if (/^youtu\.be$/i.test(url.hostname)) {
    candidate = url.pathname.split('/')[1];
  } else if (YOUTUBE_HOST.test(url.hostname)) {
    const segments = url.pathname.split('/').filter(Boolean);
    if (segments[0] === 'watch') candidate = url.searchParams.get('v');
    else if (segments[0] === 'attribution_link') {
      const inner = url.searchParams.get('u');
      candidate = inner ? new URLSearchParams(inner.split('?')[1] ?? '').get('v') : null;
    } else if (['embed', 'shorts', 'live', 'v', 'e'].includes(segments[0] ?? '')) candidate = segments[1];
  }
  return candidate && YOUTUBE_ID.test(candidate) ? candidate : null;
};

/**
 * A Vimeo id, typed as is or taken from vimeo.com/{id}, vimeo.com/{id}/{hash},
 * player.vimeo.com/video/{id}, and channel, group, album and showcase URLs.
 */
export const vimeoId = (input: string): { id: string; hash: string | null } | null => {
  const value = input.trim();
  if (VIMEO_ID.test(value)) return { id: value, hash: null };
  const url = httpUrl(value);
  if (!url || !/(^|\.)vimeo\.com$/i.test(url.hostname)) return null;
  const segments = url.pathname.split('/').filter(Boolean);
  const index = segments.findIndex((s) => VIMEO_ID.test(s));
  if (index < 0) return null;
  const id = segments[index]!;
  // Unlisted videos carry a privacy hash: vimeo.com/{id}/{hash} or ?h={hash}.
  const after = segments[index + 1];
  const hash = url.searchParams.get('h') ?? (after && /^[0-9a-f]{6,20}$/i.test(after) ? after : null);
  return { id, hash: hash && /^[0-9a-f]{6,20}$/i.test(hash) ? hash : null };
};

/** Adilo links are watch URLs (…/watch/{id}); the embed form (…/e/{id}) is accepted too. */
export const adiloId = (input: string): string | null => {
  const url = httpUrl(input.trim());
  if (!url || !ADILO_HOST.test(url.hostname)) return null;
  const match = /^\/(?:watch|e|embed)\/([^/?#]+)\/?$/.exec(url.pathname);
  return match && ADILO_ID.test(match[1]!) ? match[1]! : null;
};

const embedUrlFor = (provider: Exclude<VideoProvider, 'generic'>, id: string, hash: string | null = null): string => {
  switch (provider) {
    case 'youtube':
      return `https://www.youtube.com/embed/${id}`;
    case 'vimeo':
      return `https://player.vimeo.com/video/${id}${hash ? `?h=${hash}` : ''}`;
    case 'adilo':
      return `https://adilo.bigcommand.com/e/${id}`;
  }
};

/** Parses what a user typed for a provider. */
export const parseVideoSource = (provider: string, input: unknown): ParseResult => {
  if (!isVideoProvider(provider)) return { ok: false, message: MESSAGES.providerNotLoaded };
  const source = typeof input === 'string' ? input.trim() : '';
  if (!source) return { ok: false, message: MESSAGES.videoUrlRequired };
  if (source.length > 2048) return { ok: false, message: MESSAGES.invalidVideo };
  const done = (external_id: string | null, embed_url: string, source_url: string | null = null): ParseResult => ({
    ok: true,
    value: { provider, external_id, embed_url, source, source_url },
  });
  switch (provider) {
    case 'youtube': {
      const id = youtubeId(source);
      return id ? done(id, embedUrlFor('youtube', id)) : { ok: false, message: MESSAGES.invalidVideo };
    }
    case 'vimeo': {
      const parsed = vimeoId(source);
      return parsed ? done(parsed.id, embedUrlFor('vimeo', parsed.id, parsed.hash)) : { ok: false, message: MESSAGES.invalidVideo };
    }
    case 'adilo': {
      const id = adiloId(source);
      return id ? done(id, embedUrlFor('adilo', id)) : { ok: false, message: MESSAGES.invalidAdiloUrl };
    }
    case 'generic': {
      const url = httpUrl(source);
      return url ? done(null, url.href, url.href) : { ok: false, message: MESSAGES.invalidUrl };
    }
  }
};

/**
 * The title of a video saved without one, readable in a list: '{Provider} video {id}' ('YouTube
 * video dQw4w9WgXcQ'), and for a direct URL its file name (else its host).
 */
export const defaultVideoTitle = (source: Pick<ParsedVideoSource, 'provider' | 'external_id' | 'source_url'>): string => {
  if (source.provider === 'generic') {
    const url = source.source_url ? httpUrl(source.source_url) : null;
    const file = url?.pathname.split('/').filter(Boolean).pop();
    let name = file ?? '';
    try {
      name = decodeURIComponent(name);
    } catch {
      /* a malformed escape: the name as it is */
    }
    return name.trim().slice(0, 200) || url?.hostname || 'Video';
  }
  const label = PROVIDER_LABELS[source.provider];
  return source.external_id ? `${label} video ${source.external_id}` : `${label} video`;
};
