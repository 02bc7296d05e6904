import { messageTemplates } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import type { PlayerEntry } from '../funnels/player-payload';
import { escapeHtml } from './html';

/** Link previews cut descriptions to about what chat apps and social cards show. */
const DESCRIPTION_MAX = 200;

/** The funnel's description on one line and cut at a word, or a sentence naming the app when it has none. */
const previewDescription = (description: string, appName: string): string => {
  const text = description.replace(/\s+/g, ' ').trim();
  if (!text) return messageTemplates.funnelPreviewDescription(appName);
  if (text.length <= DESCRIPTION_MAX) return text;
  const cut = text.slice(0, DESCRIPTION_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > DESCRIPTION_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, '')}…`;
};

const publicBase = (): string => env().PUBLIC_URL.replace(/\/$/, '');

/** An absolute URL for a stored image: http(s) as it is, a path on this app under PUBLIC_URL, anything else none. */
const absoluteUrl = (value: string): string | null => {
  if (/^https?:\/\//i.test(value)) return value;
  if (/^\/[^/\\]/.test(value)) return publicBase() + value;
  return null;
};

/** The page's robots directive: nothing is indexed unless the creator allowed it for this funnel. */
const robotsDirective = (allowIndexing: boolean): string => (allowIndexing ? 'index, follow' : 'noindex');

const meta = (attribute: 'name' | 'property', key: string, content: string) => `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;

/**
 * The head lines that make a shared `/player/{reference}` link preview itself: description,
 * canonical link, Open Graph and Twitter card from the funnel's title and description and its
 * first video's poster (absolute URLs from PUBLIC_URL), and the robots directive. Every value is
 * HTML-escaped.
 */
const previewTags = (entry: Pick<PlayerEntry, 'payload' | 'preview'>): string[] => {
  const { payload, preview } = entry;
  const appName = payload.app.name;
  const title = payload.title.trim() || appName;
  const description = previewDescription(payload.description, appName);
  const url = `${publicBase()}/player/${encodeURIComponent(payload.identifier)}`;
  const image = preview.poster ? absoluteUrl(preview.poster.url) : null;
  const lines = [
    meta('name', 'description', description),
    meta('name', 'robots', robotsDirective(preview.allowIndexing)),
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    meta('property', 'og:type', payload.videos.length ? 'video.other' : 'website'),
    meta('property', 'og:site_name', appName),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
  ];
  if (image && preview.poster) {
    lines.push(meta('property', 'og:image', image));
    if (preview.poster.width && preview.poster.height) {
      lines.push(meta('property', 'og:image:width', String(preview.poster.width)), meta('property', 'og:image:height', String(preview.poster.height)));
    }
    lines.push(meta('property', 'og:image:alt', preview.poster.alt));
  }
  lines.push(
    meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
  );
  if (image && preview.poster) lines.push(meta('name', 'twitter:image', image), meta('name', 'twitter:image:alt', preview.poster.alt));
  return lines;
};

/** previewTags joined, once per payload entry (an entry is replaced whenever its funnel, videos or branding change). */
const heads = new WeakMap<Pick<PlayerEntry, 'payload' | 'preview'>, string>();
export const previewHead = (entry: Pick<PlayerEntry, 'payload' | 'preview'>): string => {
  let head = heads.get(entry);
  if (head === undefined) {
    head = previewTags(entry).join('\n');
    heads.set(entry, head);
  }
  return head;
};

/** The X-Robots-Tag header's value (also for crawlers that read headers only), or null to send none. */
export const robotsHeader = (allowIndexing: boolean): string | null => (allowIndexing ? null : 'noindex');
