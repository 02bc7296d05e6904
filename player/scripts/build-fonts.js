#!/usr/bin/env node
'use strict';
/**
 * Runs after `vite build`: copies each catalogue family's latin and latin-ext woff2 files out of
 * its @fontsource package into cms/public/build/fonts/files/ (content-hashed names, so they can be
 * cached for good) and writes one stylesheet per family, fonts/{slug}.css, whose url()s are
 * relative. The catalogue is @branchify/shared's FONT_CATALOGUE; the player links these
 * stylesheets, so no page asks a third-party server for a font.
 *
 *   node scripts/build-fonts.js [outDir]
 */
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const SUBSETS = ['latin', 'latin-ext'];
const DEFAULT_OUT_DIR = path.resolve(__dirname, '..', '..', 'cms', 'public', 'build', 'fonts');

/** Reads a file of an installed package, resolved from the player (whose dependencies they are). */
const packageDir = (name) => path.dirname(require.resolve(`${name}/package.json`, { paths: [path.resolve(__dirname, '..')] }));

const hashOf = (buffer) => createHash('sha256').update(buffer).digest('hex').slice(0, 10);

/** A CSS string literal (family names are plain words, but nothing is trusted blindly). */
const cssString = (value) => `'${String(value).replace(/[\\'\n\r]/g, '')}'`;

/**
 * The @font-face blocks one family needs: per subset and style, the variable file covering the
 * weight range (`wght` axis) or one static file per weight.
 */
const faces = (font, dir) => {
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'metadata.json'), 'utf8'));
  const ranges = JSON.parse(fs.readFileSync(path.join(dir, 'unicode.json'), 'utf8'));
  const styles = ['normal', ...(font.italic ? ['italic'] : [])];
  for (const style of styles) {
    if (!meta.styles.includes(style)) throw new Error(`${font.package} has no ${style} style, but the catalogue says it does (${font.family})`);
  }
  const out = [];
  const subsets = SUBSETS.filter((s) => meta.subsets.includes(s));
  if (!subsets.includes('latin')) throw new Error(`${font.package} has no latin subset`);
  for (const subset of subsets) {
    for (const style of styles) {
      if (meta.variable) {
        const axis = meta.variable.wght;
        if (!axis) throw new Error(`${font.package} has no wght axis`);
        const [min, max] = [Number(axis.min), Number(axis.max)];
        const outside = font.weights.filter((w) => w < min || w > max);
        if (outside.length) throw new Error(`${font.family}: weights ${outside.join(', ')} are outside ${font.package}'s ${min}-${max}`);
        out.push({ subset, style, weight: `${min} ${max}`, file: `${meta.id}-${subset}-wght-${style}.woff2`, range: ranges[subset] });
      } else {
        for (const weight of font.weights) {
          if (!meta.weights.includes(weight)) throw new Error(`${font.package} has no weight ${weight} (${font.family})`);
          out.push({ subset, style, weight: String(weight), file: `${meta.id}-${subset}-${weight}-${style}.woff2`, range: ranges[subset] });
        }
      }
    }
  }
  return out;
};

/**
 * Writes every family's files and stylesheet into `outDir` (emptied first, so a family taken out
 * of the catalogue leaves nothing behind). Returns what it wrote, per family.
 */
const buildFonts = (catalogue, outDir = DEFAULT_OUT_DIR) => {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(path.join(outDir, 'files'), { recursive: true });
  fs.mkdirSync(path.join(outDir, 'licenses'), { recursive: true });
  const written = [];
  for (const font of catalogue) {
    if (!/^[a-z0-9-]+$/.test(font.slug)) throw new Error(`font slug ${JSON.stringify(font.slug)} must be lowercase letters, digits and -`);
    const dir = packageDir(font.package);
    const blocks = [`/* ${font.family} (${font.package}); license: licenses/${font.slug}.txt */`];
    const files = [];
    for (const face of faces(font, dir)) {
      const bytes = fs.readFileSync(path.join(dir, 'files', face.file));
      const name = face.file.replace(/\.woff2$/, `.${hashOf(bytes)}.woff2`);
      fs.writeFileSync(path.join(outDir, 'files', name), bytes);
      files.push(name);
      blocks.push(
        [
          '@font-face {',
          `  font-family: ${cssString(font.family)};`,
          `  font-style: ${face.style};`,
          '  font-display: swap;',
          `  font-weight: ${face.weight};`,
          `  src: url(./files/${name}) format('woff2');`,
          ...(face.range ? [`  unicode-range: ${face.range};`] : []),
          '}',
        ].join('\n'),
      );
    }
    fs.writeFileSync(path.join(outDir, `${font.slug}.css`), `${blocks.join('\n\n')}\n`);
    fs.copyFileSync(path.join(dir, 'LICENSE'), path.join(outDir, 'licenses', `${font.slug}.txt`));
    written.push({ family: font.family, slug: font.slug, stylesheet: `${font.slug}.css`, files });
  }
  return written;
};

module.exports = { buildFonts };

if (require.main === module) {
  const { FONT_CATALOGUE } = require('@branchify/shared');
  const outDir = process.argv[2] ? path.resolve(process.argv[2]) : DEFAULT_OUT_DIR;
  const written = buildFonts(FONT_CATALOGUE, outDir);
  const count = written.reduce((n, w) => n + w.files.length, 0);
  console.log(`fonts: ${written.length} families, ${count} files → ${path.relative(process.cwd(), outDir) || '.'}`);
}
