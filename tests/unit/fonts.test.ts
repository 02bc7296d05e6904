import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_FONT_FAMILY, FONT_CATALOGUE, FONT_FAMILIES, FONT_WEIGHTS, fontStylesheetUrl, funnelDocumentSchema } from '@branchify/shared';
import { buildFonts } from '../../player/scripts/build-fonts';
import { fontFamilies, loadFonts } from '../../player/src/page/fonts';
import type { PlayerPayload } from '../../player/src/runtime/types';

describe('the font catalogue', () => {
  it('has Abel as the default and about ten other open families, each named once', () => {
    expect(DEFAULT_FONT_FAMILY).toBe('Abel');
    expect(FONT_FAMILIES[0]).toBe('Abel');
    expect(FONT_CATALOGUE.length).toBeGreaterThanOrEqual(11);
    expect(new Set(FONT_CATALOGUE.map((f) => f.family)).size).toBe(FONT_CATALOGUE.length);
    expect(new Set(FONT_CATALOGUE.map((f) => f.slug)).size).toBe(FONT_CATALOGUE.length);
    for (const font of FONT_CATALOGUE) {
      expect({ family: font.family, slug: /^[a-z0-9-]+$/.test(font.slug) }).toEqual({ family: font.family, slug: true });
      expect(font.weights.length).toBeGreaterThan(0);
      expect(font.weights.every((w) => w % 100 === 0 && w >= 100 && w <= 900)).toBe(true);
      expect(font.package).toMatch(/^@fontsource(-variable)?\//);
    }
    // Every family has the regular weight the editor starts with.
    expect(FONT_CATALOGUE.every((f) => (f.weights as readonly number[]).includes(FONT_WEIGHTS.regular))).toBe(true);
  });

  it('fontStylesheetUrl gives our own stylesheet for a catalogue family and null for anything else', () => {
    expect(fontStylesheetUrl('Abel')).toBe('/build/fonts/abel.css');
    expect(fontStylesheetUrl('Open Sans')).toBe('/build/fonts/open-sans.css');
    expect(fontStylesheetUrl('Source Sans 3')).toBe('/build/fonts/source-sans-3.css');
    for (const other of ['Comic Sans MS', 'open sans', 'Arial', '', null, undefined, '../abel', 'https://fonts.googleapis.com/css2?family=Abel']) {
      expect(fontStylesheetUrl(other)).toBeNull();
    }
  });

  it('is what the funnel schema accepts for text, prompt and button fonts (default Abel)', () => {
    const doc = (font: string | undefined) => ({
      title: 'T',
      videos: [
        {
          id: 1,
          editor_id: 'a',
          elements: [
            { id: 't', type: 'text', data: { fontFamily: font } },
            { id: 'b', type: 'branch', data: { prompt: { fontFamily: font }, branches: [{ id: 'x', onclick: 'timestamp', standard: { font } }] } },
          ],
        },
      ],
    });
    for (const family of FONT_FAMILIES) expect(funnelDocumentSchema.safeParse(doc(family)).success).toBe(true);
    const defaults = funnelDocumentSchema.parse(doc(undefined)).videos[0]!.elements;
    expect(defaults[0]!.type === 'text' && defaults[0]!.data.fontFamily).toBe('Abel');
    expect(defaults[1]!.type === 'branch' && [defaults[1]!.data.prompt.fontFamily, defaults[1]!.data.branches[0]!.standard.font]).toEqual(['Abel', 'Abel']);
    const refused = funnelDocumentSchema.safeParse(doc('Papyrus'));
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'videos.0.elements.0.data.fontFamily',
      'videos.0.elements.1.data.branches.0.standard.font',
      'videos.0.elements.1.data.prompt.fontFamily',
    ]);
  });
});

describe("the player build's font step", () => {
  let out: string;
  let written: ReturnType<typeof buildFonts>;
  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-fonts-'));
    // A file from an older build must not survive.
    fs.writeFileSync(path.join(out, 'stale.css'), '');
    written = buildFonts(FONT_CATALOGUE, out);
  });
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('writes a stylesheet, its woff2 files and the license for every catalogue family, and nothing else', () => {
    expect(written.map((w) => w.family)).toEqual(FONT_FAMILIES);
    expect(fs.readdirSync(out).sort()).toEqual([...FONT_CATALOGUE.map((f) => `${f.slug}.css`), 'files', 'licenses'].sort());
    for (const font of FONT_CATALOGUE) {
      expect({ family: font.family, license: fs.statSync(path.join(out, 'licenses', `${font.slug}.txt`)).size > 0 }).toEqual({
        family: font.family,
        license: true,
      });
    }
  });

  it.each(FONT_CATALOGUE.map((f) => [f.family, f] as const))(
    '%s: relative url()s to woff2 files that exist, latin and latin-ext, its weights and styles',
    (_name, font) => {
      const css = fs.readFileSync(path.join(out, `${font.slug}.css`), 'utf8');
      expect(css).not.toMatch(/https?:|\/\//);
      const faces = [...css.matchAll(/@font-face \{([^}]*)\}/g)].map((m) => m[1]!);
      expect(faces.length).toBeGreaterThan(0);
      const styles = new Set<string>();
      const covered = new Set<number>();
      for (const face of faces) {
        expect(face).toContain(`font-family: '${font.family}';`);
        expect(face).toContain('font-display: swap;');
        expect(face).toMatch(/unicode-range: U\+/);
        const [, file] = /src: url\(\.\/files\/([a-z0-9.-]+\.woff2)\) format\('woff2'\);/.exec(face) ?? [];
        expect(file).toBeDefined();
        const bytes = fs.readFileSync(path.join(out, 'files', file!));
        expect(bytes.subarray(0, 4).toString('latin1')).toBe('wOF2');
        styles.add(/font-style: (\w+);/.exec(face)![1]!);
        const [low, high = low] = /font-weight: (\d+)(?: (\d+))?;/.exec(face)!.slice(1).filter(Boolean).map(Number) as [number, number?];
        for (const w of font.weights) if (w >= low && w <= high!) covered.add(w);
      }
      expect([...covered].sort((a, b) => a - b)).toEqual([...font.weights]);
      expect([...styles].sort()).toEqual(font.italic ? ['italic', 'normal'] : ['normal']);
      const files = written.find((w) => w.family === font.family)!.files;
      expect(files.some((f) => f.includes('-latin-') && !f.includes('-latin-ext-'))).toBe(true);
      // Abel is drawn for latin only; every other family also covers latin-ext.
      if (font.family !== 'Abel') expect(files.some((f) => f.includes('-latin-ext-'))).toBe(true);
      // Content-hashed names: a changed font is a new URL, so the files can be cached for good.
      expect(files.every((f) => /\.[0-9a-f]{10}\.woff2$/.test(f))).toBe(true);
    },
  );
});

describe('the /player page font loader', () => {
  const payload = (fonts: { text?: string; prompt?: string; button?: string }) =>
    ({
      videos: [
        {
          editor_id: 'a',
          elements: [
            { id: 't', type: 'text', data: { fontFamily: fonts.text } },
            {
              id: 'b',
              type: 'branch',
              data: { prompt: { fontFamily: fonts.prompt }, branches: [{ id: 'x', type: 'standard', standard: { font: fonts.button } }] },
            },
          ],
        },
        { editor_id: 'b', elements: [{ id: 't2', type: 'text', data: { fontFamily: fonts.text } }] },
      ],
    }) as unknown as PlayerPayload;

  /** Just enough of a document to see which stylesheets the loader links. */
  const fakeDocument = () => {
    const links: Array<{ rel: string; href: string }> = [];
    const doc = {
      head: {
        appendChild: (link: { rel: string; href: string }) => links.push(link),
        querySelector: (selector: string) => links.find((l) => selector.includes(`href="${l.href}"`)) ?? null,
      },
      createElement: () => ({ rel: '', href: '' }),
    };
    return { doc: doc as unknown as Document, links };
  };

  it('links our own stylesheet once per catalogue family the funnel uses', () => {
    const { doc, links } = fakeDocument();
    loadFonts(payload({ text: 'Lato', prompt: 'Playfair Display', button: 'Lato' }), doc);
    expect(links).toEqual([
      { rel: 'stylesheet', href: '/build/fonts/lato.css' },
      { rel: 'stylesheet', href: '/build/fonts/playfair-display.css' },
    ]);
    // Loading again (the editor's preview remounting) adds nothing.
    loadFonts(payload({ text: 'Lato' }), doc);
    expect(links).toHaveLength(2);
  });

  it('asks nothing for a family outside the catalogue: no third-party request at all', () => {
    const { doc, links } = fakeDocument();
    expect(fontFamilies(payload({ text: 'Comic Sans MS', prompt: 'https://fonts.googleapis.com/css2?family=X', button: undefined }))).toEqual([]);
    loadFonts(payload({ text: 'Comic Sans MS', prompt: 'Roboto' }), doc);
    expect(links.map((l) => l.href)).toEqual(['/build/fonts/roboto.css']);
    expect(links.every((l) => l.href.startsWith('/build/fonts/'))).toBe(true);
  });
});
