import { adiloId, defaultVideoTitle, parseVideoSource, vimeoId, youtubeId } from '@branchify/shared';

describe('youtubeId', () => {
  it.each([
    ['dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42s', 'dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://music.youtube.com/watch?v=dQw4w9WgXcQ&list=RD', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=Ab12&t=3', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1', 'dQw4w9WgXcQ'],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/live/dQw4w9WgXcQ?feature=shared', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/v/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/attribution_link?u=/watch%3Fv%3DdQw4w9WgXcQ%26feature%3Dshare', 'dQw4w9WgXcQ'],
    ['  dQw4w9WgXcQ  ', 'dQw4w9WgXcQ'],
  ])('%s → %s', (input, id) => expect(youtubeId(input)).toBe(id));

  it.each([
    'dQw4w9WgXc',
    'dQw4w9WgXcQQ',
    'https://www.youtube.com/watch?v=short',
    'https://www.youtube.com/channel/UC1234567890',
    'https://notyoutube.com/watch?v=dQw4w9WgXcQ',
    'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    'javascript:alert(1)//youtu.be/dQw4w9WgXcQ',
    '',
  ])('rejects %s', (input) => expect(youtubeId(input)).toBeNull());
});

describe('vimeoId', () => {
  it.each([
    ['76979871', { id: '76979871', hash: null }],
    ['https://vimeo.com/76979871', { id: '76979871', hash: null }],
    ['https://vimeo.com/76979871/8272103f6e', { id: '76979871', hash: '8272103f6e' }],
    ['https://player.vimeo.com/video/76979871?h=8272103f6e&badge=0', { id: '76979871', hash: '8272103f6e' }],
    ['https://vimeo.com/channels/staffpicks/76979871', { id: '76979871', hash: null }],
    ['https://vimeo.com/groups/motion/videos/76979871', { id: '76979871', hash: null }],
    ['https://vimeo.com/showcase/1234567/video/76979871', { id: '1234567', hash: null }],
  ])('%s', (input, expected) => expect(vimeoId(input)).toEqual(expected));

  it.each(['https://vimeo.com/channels/staffpicks', 'https://vimeo.evil.example/76979871', 'abc'])('rejects %s', (input) => expect(vimeoId(input)).toBeNull());
});

describe('adiloId', () => {
  it.each([
    ['https://adilo.bigcommand.com/watch/Xy12AbCd', 'Xy12AbCd'],
    ['https://adilo.bigcommand.com/e/Xy12AbCd', 'Xy12AbCd'],
    ['https://video.adilo.com/watch/Xy12AbCd/', 'Xy12AbCd'],
  ])('%s → %s', (input, id) => expect(adiloId(input)).toBe(id));
  it.each(['Xy12AbCd', 'https://example.com/watch/Xy12AbCd', 'https://adilo.bigcommand.com/library/Xy12AbCd'])('rejects %s', (input) =>
    expect(adiloId(input)).toBeNull(),
  );
});

describe('parseVideoSource', () => {
  it('answers the spec messages', () => {
    expect(parseVideoSource('youtube', 'nope')).toEqual({ ok: false, message: 'invalid video id or url' });
    expect(parseVideoSource('flash', 'x')).toEqual({ ok: false, message: 'Video provider not loaded' });
    expect(parseVideoSource('generic', 'data:video/mp4;base64,AAAA')).toEqual({ ok: false, message: 'invalid url' });
  });

  it('keeps a generic URL as the embed and source URL', () => {
    expect(parseVideoSource('generic', 'https://cdn.example.com/v.mp4?x=1')).toEqual({
      ok: true,
      value: {
        provider: 'generic',
        external_id: null,
        embed_url: 'https://cdn.example.com/v.mp4?x=1',
        source: 'https://cdn.example.com/v.mp4?x=1',
        source_url: 'https://cdn.example.com/v.mp4?x=1',
      },
    });
  });

  it('names untitled videos readably: the provider and its id, or the file name of a direct URL', () => {
    expect(defaultVideoTitle({ provider: 'youtube', external_id: 'dQw4w9WgXcQ', source_url: null })).toBe('YouTube video dQw4w9WgXcQ');
    expect(defaultVideoTitle({ provider: 'vimeo', external_id: '76979871', source_url: null })).toBe('Vimeo video 76979871');
    expect(defaultVideoTitle({ provider: 'adilo', external_id: 'Ab3x', source_url: null })).toBe('Adilo video Ab3x');
    expect(defaultVideoTitle({ provider: 'generic', external_id: null, source_url: 'https://cdn.example.com/talks/My%20intro.mp4?x=1' })).toBe('My intro.mp4');
    expect(defaultVideoTitle({ provider: 'generic', external_id: null, source_url: 'https://cdn.example.com/' })).toBe('cdn.example.com');
  });
});
