import fc from 'fast-check';
import { FUNNEL_EXPORT_VERSION, readFunnelExport, uploadedImagesOf } from '@branchify/shared';
import { mutatedExport } from '../harness/export-mutations';

/** A valid file: two videos, a branch with an uploaded button image, a text. */
const BASE = {
  format: 'branchify.funnel',
  version: 1,
  exported_at: '2026-11-26T00:00:00.000Z',
  funnel: {
    title: 'Launch',
    description: '',
    settings: { enable_resume_play: true },
    videos: [
      {
        editor_id: 'intro',
        video: 'video-1',
        elements: [
          {
            id: 'choice',
            type: 'branch',
            showAt: 1,
            hideAt: 5,
            data: { branches: [{ id: 'b1', onclick: 'branch', video: 'offer', type: 'image', image: { source: '/uploads/button_1.png' } }] },
          },
          { id: 'hello', type: 'text', data: { title: 'Hi' } },
        ],
      },
      { editor_id: 'offer', video: 'video-2', elements: [] },
    ],
  },
  library: [
    { ref: 'video-1', provider: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'Intro' },
    { ref: 'video-2', provider: 'generic', url: 'https://media.example.com/offer.mp4', title: 'Offer', duration: 12 },
  ],
  images: [{ path: '/uploads/button_1.png', type: 'image/png', data: 'iVBORw0KGgo=' }],
};

describe('readFunnelExport', () => {
  it('reads a valid file: the document with library positions as video ids, the entries and the images', () => {
    const read = readFunnelExport(BASE);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.document.videos.map((v) => [v.editor_id, v.id])).toEqual([
      ['intro', 1],
      ['offer', 2],
    ]);
    expect(uploadedImagesOf(read.value.document)).toEqual(['/uploads/button_1.png']);
    expect(read.value.library).toHaveLength(2);
  });

  it('names the version it reads up to when a file is newer', () => {
    const read = readFunnelExport({ ...BASE, version: FUNNEL_EXPORT_VERSION + 1 });
    expect(read).toEqual({ ok: false, problems: [{ path: 'version', message: expect.stringContaining(`reads up to format ${FUNNEL_EXPORT_VERSION}`) }] });
  });

  it('never throws on a mutated file: it reads it, or names each problem by its path in the file', () => {
    fc.assert(
      fc.property(mutatedExport(BASE), (file) => {
        const read = readFunnelExport(file);
        if (read.ok) {
          // What it reads is whole: every video names an entry, every uploaded image is embedded.
          for (const v of read.value.document.videos) expect(v.id).toBeGreaterThan(0);
          const embedded = new Set(read.value.images.map((i) => i.path));
          for (const path of uploadedImagesOf(read.value.document)) expect(embedded.has(path)).toBe(true);
        } else {
          expect(read.problems.length).toBeGreaterThan(0);
          for (const p of read.problems) {
            expect(typeof p.path).toBe('string');
            expect(p.message.length).toBeGreaterThan(0);
          }
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 3000 },
    );
  });
});
