import { MESSAGES } from '@branchify/shared';
import { LOADERS, loaderFor, videoProblem } from '../../player/src/providers';
import type { PlayerVideo } from '../../player/src/runtime/types';

const video = (over: Partial<PlayerVideo>): PlayerVideo => ({
  editor_id: 'v',
  title: 'v',
  provider: 'generic',
  external_id: null,
  embed_url: 'https://cdn.example.com/v.mp4',
  source_url: 'https://cdn.example.com/v.mp4',
  thumbnail: null,
  duration: null,
  elements: [],
  ...over,
});

describe('provider selection and its messages', () => {
  it('needs an embed URL and a provider: Couldnt get video player', () => {
    expect(videoProblem(null)).toBe(MESSAGES.couldntGetPlayer);
    expect(videoProblem(video({ embed_url: null, source_url: null }))).toBe(MESSAGES.couldntGetPlayer);
    expect(videoProblem(video({ provider: '' }))).toBe(MESSAGES.couldntGetPlayer);
  });

  it('refuses an unknown provider: Video provider not loaded', () => {
    expect(videoProblem(video({ provider: 'dailymotion' }))).toBe(MESSAGES.providerNotLoaded);
  });

  it('needs a parsable YouTube or Vimeo id: invalid video id or url', () => {
    expect(videoProblem(video({ provider: 'youtube', embed_url: 'https://www.youtube.com/embed/nope', external_id: null }))).toBe(MESSAGES.invalidVideo);
    expect(videoProblem(video({ provider: 'youtube', embed_url: 'https://www.youtube.com/embed/dQw4w9WgXcQ', external_id: 'dQw4w9WgXcQ' }))).toBeNull();
    expect(videoProblem(video({ provider: 'vimeo', embed_url: 'https://example.com/x', external_id: null }))).toBe(MESSAGES.invalidVideo);
    expect(videoProblem(video({ provider: 'vimeo', embed_url: 'https://player.vimeo.com/video/76979871', external_id: '76979871' }))).toBeNull();
    expect(videoProblem(video({ provider: 'adilo', embed_url: 'https://adilo.bigcommand.com/e/AbCdEf12' }))).toBeNull();
    expect(videoProblem(video({}))).toBeNull();
  });

  it('picks one loader per provider with canPlay, in order', () => {
    expect(LOADERS.map((l) => l.name)).toEqual(['youtube', 'vimeo', 'adilo', 'generic']);
    for (const provider of ['youtube', 'vimeo', 'adilo', 'generic']) expect(loaderFor(video({ provider }))?.name).toBe(provider);
    expect(loaderFor(video({ provider: 'other' }))).toBeUndefined();
  });
});
