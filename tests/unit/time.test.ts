import { clockTime, spelledDuration, videoLength } from '@branchify/shared';

describe('lengths of time, written one way everywhere', () => {
  it('clock style: m:ss, then h:mm:ss from an hour, never negative', () => {
    expect(clockTime(0)).toBe('0:00');
    expect(clockTime(5.9)).toBe('0:05');
    expect(clockTime(65)).toBe('1:05');
    expect(clockTime(3723)).toBe('1:02:03');
    expect(clockTime(-3)).toBe('0:00');
  });

  it('keeps tenths when asked and the time has them', () => {
    expect(clockTime(62.5, { tenths: true })).toBe('1:02.5');
    expect(clockTime(62, { tenths: true })).toBe('1:02');
    expect(clockTime(59.96, { tenths: true })).toBe('1:00');
  });

  it("a video's length rounds to the second and never reads 1:60", () => {
    expect(videoLength(119.6)).toBe('2:00');
    expect(videoLength(3599.5)).toBe('1:00:00');
    expect(videoLength(null)).toBe('');
    expect(videoLength(0)).toBe('');
  });

  it('spelled out for reports', () => {
    expect(spelledDuration(0)).toBe('0s');
    expect(spelledDuration(3725)).toBe('1h 2m 5s');
  });
});
