import { isCompressibleType } from '@branchify/shared/node';
import { chooseCoding, codedEtag } from '../../plugins/branchify/server/src/http/content-coding';

const BOTH = ['br', 'gzip'] as const;

describe('choosing a content coding from Accept-Encoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['br, gzip', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['deflate', 'identity'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['gzip;q=0, *', 'br'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['identity;q=1, br;q=0.5', 'identity'],
    ['br;q=0.5, identity;q=0.2', 'br'],
    ['br;q=bogus, gzip', 'gzip'],
  ])('%j → %s', (header, expected) => {
    expect(chooseCoding(header, BOTH)).toBe(expected);
  });

  it('picks only among the codings at hand', () => {
    expect(chooseCoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(chooseCoding('br', ['gzip'])).toBe('identity');
    expect(chooseCoding('br, gzip', [])).toBe('identity');
  });

  it('gives each coding its own entity tag, weak or strong', () => {
    expect(codedEtag('"abc"', 'identity')).toBe('"abc"');
    expect(codedEtag('"abc"', 'br')).toBe('"abc-br"');
    expect(codedEtag('W/"1f-2a"', 'gzip')).toBe('W/"1f-2a-gzip"');
  });
});

describe('types compressed on the fly', () => {
  it.each(['text/html', 'text/css', 'text/csv', 'application/json', 'application/problem+json', 'application/javascript', 'application/xml', 'image/svg+xml'])(
    '%s: yes',
    (type) => {
      expect(isCompressibleType(type)).toBe(true);
    },
  );
  it.each(['application/octet-stream', 'video/mp4', 'video/webm', 'image/png', 'font/woff2', 'application/zip', 'text/event-stream', 'application/jsonp-ish'])(
    '%s: no',
    (type) => {
      expect(isCompressibleType(type)).toBe(false);
    },
  );
});
