import { JSDOM } from 'jsdom';

export interface PreviewTags {
  /** meta content by name or property (`description`, `og:title`, `twitter:card`, …). */
  meta: Record<string, string>;
  canonical: string | null;
  /** Every script element of the document (to see that no value broke out of its attribute). */
  scripts: number;
  title: string;
}

/** The link-preview tags of a player page, read by an HTML parser (values come back unescaped). */
export const readPreviewTags = (html: string): PreviewTags => {
  const { document } = new JSDOM(html).window;
  const meta: Record<string, string> = {};
  for (const el of Array.from(document.head.querySelectorAll('meta[name], meta[property]'))) {
    const key = el.getAttribute('property') ?? el.getAttribute('name')!;
    if (key in meta) throw new Error(`meta ${key} appears twice`);
    meta[key] = el.getAttribute('content') ?? '';
  }
  return {
    meta,
    canonical: document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
    scripts: document.querySelectorAll('script').length,
    title: document.title,
  };
};
