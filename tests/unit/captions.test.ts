import { canonicalLanguage, captionFormat, captionProblemText, parseCaptionFile, parseSrt, parseWebVtt, readCues, vttTimestamp } from '@branchify/shared';

const problemOf = (parsed: ReturnType<typeof parseWebVtt>) => (parsed.ok ? null : captionProblemText(parsed.problem));

describe('SRT to WebVTT', () => {
  it('converts counters, comma times and text, keeping line breaks and styling tags', () => {
    const srt = '\uFEFF1\r\n00:00:01,000 --> 00:00:04,500\r\nHello <i>there</i>\r\nsecond line\r\n\r\n2\r\n01:02:03,004 --> 01:02:05,000\r\nBye\r\n';
    const parsed = parseSrt(srt);
    expect(parsed).toEqual({
      ok: true,
      vtt: 'WEBVTT\n\n00:00:01.000 --> 00:00:04.500\nHello <i>there</i>\nsecond line\n\n01:02:03.004 --> 01:02:05.000\nBye\n',
      cues: [
        { start: 1, end: 4.5, text: 'Hello <i>there</i>\nsecond line' },
        { start: 3723.004, end: 3725, text: 'Bye' },
      ],
    });
  });

  it('takes blocks without a counter and extra blank lines', () => {
    const parsed = parseSrt('\n\n00:00:01,000 --> 00:00:02,000\nA\n\n\n\n3\n00:00:02,000 --> 00:00:03,000\nB');
    expect(parsed.ok && parsed.cues.map((c) => c.text)).toEqual(['A', 'B']);
  });

  it('names the line that fails', () => {
    expect(problemOf(parseSrt('1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:00:02 --> 00:00:03,000\nB\n'))).toBe(
      'Line 6: "00:00:02" is not a time; write it as 00:00:01,000.',
    );
    expect(problemOf(parseSrt('1\n00:00:01,000 --> 00:00:02,000\nA\n\nhello\nworld\n'))).toBe(
      'Line 5: expected a cue number or a timing such as 00:00:01,000 --> 00:00:04,000, found "hello".',
    );
    expect(problemOf(parseSrt('1\n00:00:03,000 --> 00:00:02,000\nA\n'))).toBe('Line 2: the cue ends before it starts.');
    expect(problemOf(parseSrt('7\n'))).toBe('Line 2: expected a cue timing such as 00:00:01,000 --> 00:00:04,000 after the cue number.');
    expect(problemOf(parseSrt('1\n00:00:01,000 --> 00:00:02,000\nA\n2\n00:00:02,000 --> 00:00:03,000\nB\n'))).toBe(
      'Line 5: a cue timing inside a cue’s text; separate cues with a blank line.',
    );
    expect(problemOf(parseSrt('\n\n'))).toBe('Line 3: the file ends without a single cue.');
  });
});

describe('the WebVTT validator', () => {
  it('accepts cues with identifiers, settings, notes and styles, and answers plain WebVTT', () => {
    const vtt = [
      'WEBVTT - a title',
      'Kind: captions',
      '',
      'STYLE',
      '::cue { color: red; background: url(https://evil.example/x) }',
      '',
      'NOTE a comment',
      'that spans lines',
      '',
      'intro',
      '00:01.000 --> 00:02.500 align:start position:10% evil:1',
      '<v Ada>Hi</v> &amp; welcome',
      '',
      '00:00:03.000 --> 00:00:04.000',
      'Two',
    ].join('\n');
    const parsed = parseWebVtt(vtt);
    expect(parsed.ok && parsed.vtt).toBe(
      'WEBVTT\n\nintro\n00:00:01.000 --> 00:00:02.500 align:start position:10%\n<v Ada>Hi</v> &amp; welcome\n\n00:00:03.000 --> 00:00:04.000\nTwo\n',
    );
    expect(readCues(parsed.ok ? parsed.vtt : '')).toEqual([
      { start: 1, end: 2.5, text: '<v Ada>Hi</v> &amp; welcome' },
      { start: 3, end: 4, text: 'Two' },
    ]);
  });

  it('names the line that fails', () => {
    expect(problemOf(parseWebVtt('WEBVTTX\n'))).toBe('Line 1: a WebVTT file starts with the line WEBVTT.');
    expect(problemOf(parseWebVtt('WEBVTT\n00:01.000 --> 00:02.000\nA\n'))).toBe('Line 2: add a blank line between the WEBVTT header and the first cue.');
    expect(problemOf(parseWebVtt('WEBVTT\n\n00:01.000 --> 00:02.000\nA\n\n00:03.000 -> 00:04.000\nB\n'))).toBe(
      'Line 6: expected a cue timing such as 00:00:01.000 --> 00:00:04.000, found "00:03.000 -> 00:04.000".',
    );
    expect(problemOf(parseWebVtt('WEBVTT\n\n00:01.000 --> 00:61.000\nA\n'))).toBe('Line 3: "00:61.000" is not a time; write it as 00:00:01.000.');
    expect(problemOf(parseWebVtt('WEBVTT\n\nid only\n'))).toBe('Line 4: expected a cue timing such as 00:00:01.000 --> 00:00:04.000 after the cue identifier.');
    expect(problemOf(parseWebVtt('WEBVTT\n\n00:01.000 --> 00:02.000\nA\n\n00:03.000 --> 00:04.000\nB\u0000\n'))).toBe(
      'Line 7: contains a character that is not text.',
    );
    expect(problemOf(parseWebVtt('WEBVTT\n\n00:01.000 --> 00:02.000\nA\n\nSTYLE\n::cue {}\n'))).toBe('Line 6: STYLE blocks must come before the first cue.');
    expect(problemOf(parseWebVtt('WEBVTT\n\nNOTE nothing else\n'))).toBe('Line 4: the file ends without a single cue.');
    expect(problemOf(parseWebVtt('WEBVTT\n\n25:00:00.000 --> 25:00:01.000\nlate\n'))).toBe('Line 3: the cue ends more than 24 hours into the video.');
  });

  it('reads bytes as UTF-8 and names the line of a byte that is not', () => {
    const bytes = Buffer.concat([Buffer.from('WEBVTT\n\n00:01.000 --> 00:02.000\ncaf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    const parsed = parseCaptionFile(bytes, 'vtt');
    expect(parsed.ok ? null : captionProblemText(parsed.problem)).toBe('Line 4: is not UTF-8 text; save the file as UTF-8 and upload it again.');
    expect(parseCaptionFile(Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nçà\n'), 'srt').ok).toBe(true);
  });

  it('tells the format by the name and writes timestamps', () => {
    expect([captionFormat('a.VTT'), captionFormat('b.srt'), captionFormat('c.txt'), captionFormat(null)]).toEqual(['vtt', 'srt', null, null]);
    expect(vttTimestamp(3723.004)).toBe('01:02:03.004');
    expect(vttTimestamp(0.5)).toBe('00:00:00.500');
  });

  it('takes BCP-47 language codes in their canonical case', () => {
    expect(['en', 'EN-us', 'pt-br', 'zh-Hant-TW', 'sr-latn'].map(canonicalLanguage)).toEqual(['en', 'en-US', 'pt-BR', 'zh-Hant-TW', 'sr-Latn']);
    expect(['', 'english', 'e', 'en_US', '<b>', 'en--US'].map(canonicalLanguage)).toEqual([null, null, null, null, null, null]);
  });
});
