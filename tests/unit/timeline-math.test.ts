import {
  boxStarts,
  clampTimestamp,
  clampZoom,
  contentWidth,
  scrollKeepingPlayhead,
  defaultHideAt,
  duplicatePosition,
  formatTimecode,
  moveBar,
  nextBranchName,
  parseClampedTime,
  parseTime,
  pxPerSecond,
  pxToTime,
  resizeBar,
  rowCount,
  snapTime,
  staggered,
  timeToPx,
  timelineDuration,
  timestampBounds,
  zoomFactor,
  zoomIn,
  zoomOut,
} from '../../frontend/src/creator/editor/timeline-math';

const scale = (over: Partial<{ duration: number; viewWidth: number; zoom: number }> = {}) => ({ duration: 100, viewWidth: 1000, zoom: 0, ...over });

describe('timeline zoom', () => {
  it('starts at 0 and moves in steps of 25 up to the maximum', () => {
    expect(zoomIn(0)).toBe(25);
    expect(zoomIn(25)).toBe(50);
    expect(zoomOut(0)).toBe(0);
    expect(zoomIn(200)).toBe(200);
    expect(clampZoom(37)).toBe(25);
  });

  it('fits the whole video in the view at zoom 0 and one more view-width per step', () => {
    expect(zoomFactor(0)).toBe(1);
    expect(zoomFactor(25)).toBe(2);
    expect(contentWidth(scale())).toBe(1000);
    expect(contentWidth(scale({ zoom: 50 }))).toBe(3000);
  });

  it('shows 10 boxes per view-width on the ruler', () => {
    expect(boxStarts(scale())).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(boxStarts(scale({ zoom: 25 }))).toHaveLength(20);
    expect(boxStarts(scale({ zoom: 25 }))[1]).toBe(5);
  });

  it('has at least 4 rows, one per element beyond that', () => {
    expect(rowCount(0)).toBe(4);
    expect(rowCount(4)).toBe(4);
    expect(rowCount(7)).toBe(7);
  });
});

describe('time and pixels', () => {
  it('converts both ways at the zoom', () => {
    expect(pxPerSecond(scale())).toBe(10);
    expect(timeToPx(12.5, scale())).toBe(125);
    expect(timeToPx(12.5, scale({ zoom: 25 }))).toBe(250);
    expect(pxToTime(250, scale({ zoom: 25 }))).toBe(12.5);
  });

  it('keeps pixel times inside the video', () => {
    expect(pxToTime(-40, scale())).toBe(0);
    expect(pxToTime(5000, scale())).toBe(100);
  });

  it('spans the video, or a minute (or the latest element) until its duration is known', () => {
    expect(timelineDuration(42)).toBe(42);
    expect(timelineDuration(null)).toBe(60);
    expect(timelineDuration(0, 95.2)).toBe(96);
  });

  it('hides a new element 5 s after it shows, or at the end of a video that ends sooner', () => {
    expect(defaultHideAt(5, 100)).toBe(10);
    expect(defaultHideAt(95, 100)).toBe(100);
    expect(defaultHideAt(2, 4)).toBe(4);
  });
});

describe('snapping', () => {
  it('snaps to the nearest edge within the threshold', () => {
    // 6 px at 10 px/s is 0.6 s.
    expect(snapTime(10.4, [10, 20], scale())).toBe(10);
    expect(snapTime(10.7, [10, 20], scale())).toBe(10.7);
    expect(snapTime(19.6, [10, 19.8, 20], scale())).toBe(19.8);
  });

  it('snaps more tightly when zoomed in', () => {
    expect(snapTime(10.4, [10], scale({ zoom: 100 }))).toBe(10.4);
  });
});

describe('bars', () => {
  it('moves a bar keeping its length, inside the video', () => {
    expect(moveBar({ showAt: 10, hideAt: 20 }, 30, 100)).toEqual({ showAt: 30, hideAt: 40 });
    expect(moveBar({ showAt: 10, hideAt: 20 }, 95, 100)).toEqual({ showAt: 90, hideAt: 100 });
    expect(moveBar({ showAt: 10, hideAt: 20 }, -5, 100)).toEqual({ showAt: 0, hideAt: 10 });
  });

  it('resizes one edge without crossing the other', () => {
    expect(resizeBar({ showAt: 10, hideAt: 20 }, 'start', 5, 100)).toEqual({ showAt: 5, hideAt: 20 });
    expect(resizeBar({ showAt: 10, hideAt: 20 }, 'start', 25, 100)).toEqual({ showAt: 19.9, hideAt: 20 });
    expect(resizeBar({ showAt: 10, hideAt: 20 }, 'end', 150, 100)).toEqual({ showAt: 10, hideAt: 100 });
    expect(resizeBar({ showAt: 10, hideAt: 20 }, 'end', 2, 100)).toEqual({ showAt: 10, hideAt: 10.1 });
  });
});

describe('typed times', () => {
  it.each([
    ['45', 45],
    ['1:30', 90],
    ['1:02:03', 3723],
    ['0:07.5', 7.5],
    [' 2:00 ', 120],
    ['90', 90],
  ])('parses %p as %p seconds', (input, seconds) => {
    expect(parseTime(input)).toBe(seconds);
  });

  it.each(['', 'abc', '1:60', '1:2:3:4', '-5', '1.5:00', '1::2'])('refuses %p', (input) => {
    expect(parseTime(input)).toBeNull();
  });

  it('clamps a typed time to the bounds', () => {
    expect(parseClampedTime('2:00', 0, 100)).toBe(100);
    expect(parseClampedTime('5', 10, 100)).toBe(10);
    expect(parseClampedTime('x', 0, 100)).toBeNull();
  });

  it('formats seconds as m:ss or h:mm:ss, with tenths when there are some', () => {
    expect(formatTimecode(0)).toBe('0:00');
    expect(formatTimecode(62.5)).toBe('1:02.5');
    expect(formatTimecode(3723)).toBe('1:02:03');
    expect(parseTime(formatTimecode(3723.4))).toBe(3723.4);
  });
});

describe('Jump To Timestamp bounds', () => {
  it('derives each unit’s maximum from the duration', () => {
    expect(timestampBounds(45)).toEqual({ hours: 0, minutes: 0, seconds: 45 });
    expect(timestampBounds(125)).toEqual({ hours: 0, minutes: 2, seconds: 59 });
    expect(timestampBounds(3 * 3600 + 5)).toEqual({ hours: 3, minutes: 59, seconds: 59 });
    expect(timestampBounds(null)).toEqual({ hours: 0, minutes: 0, seconds: 0 });
  });

  it('clamps each part and the whole to the video', () => {
    expect(clampTimestamp({ hours: 1, minutes: 70, seconds: -3 }, 125)).toEqual({ hours: 0, minutes: 2, seconds: 0 });
    expect(clampTimestamp({ hours: 0, minutes: 2, seconds: 59 }, 125)).toEqual({ hours: 0, minutes: 2, seconds: 5 });
  });
});

describe('placing new items', () => {
  const area = { width: 640, height: 360 };
  it('staggers elements by 30 px and branches by 20 px, wrapping inside the player', () => {
    expect(staggered(0, 30, area)).toEqual({ top: 0, left: 0 });
    expect(staggered(2, 30, area)).toEqual({ top: 60, left: 60 });
    expect(staggered(3, 20, area)).toEqual({ top: 60, left: 60 });
    // (360 - 100) / 30 = 8 steps fit: the 9th starts over.
    expect(staggered(8, 30, area)).toEqual({ top: 0, left: 0 });
  });

  it('offsets a duplicate by 30 px down and right', () => {
    expect(duplicatePosition({ top: 10, left: 40 })).toEqual({ top: 40, left: 70 });
  });

  it('names branches Branch 1, Branch 2, … after the highest in use', () => {
    expect(nextBranchName([])).toBe('Branch 1');
    expect(nextBranchName(['Branch 1'])).toBe('Branch 2');
    expect(nextBranchName(['Branch 1', 'Branch 5'])).toBe('Branch 6');
    expect(nextBranchName(['Yes', 'No'])).toBe('Branch 3');
  });
});

describe('zooming keeps the playhead in view', () => {
  const at = (zoom: number) => ({ duration: 100, viewWidth: 1000, zoom });
  it('keeps its place in the view, or brings it to the middle when it was out of view', () => {
    // 10 px a second at zoom 0; 20 at zoom 25. The playhead at 50 s, 300 px into the view.
    expect(scrollKeepingPlayhead(50, at(0), at(25), 200, 1000)).toBe(700);
    // Out of view before: to the middle.
    expect(scrollKeepingPlayhead(90, at(100), at(125), 0, 1000)).toBe(90 * 60 - 500);
    // Never past either end.
    expect(scrollKeepingPlayhead(1, at(0), at(200), 0, 1000)).toBe(80);
    expect(scrollKeepingPlayhead(1, at(0), at(200), 5, 1000)).toBe(85);
    expect(scrollKeepingPlayhead(0, at(25), at(0), 0, 1000)).toBe(0);
    expect(scrollKeepingPlayhead(100, at(175), at(200), 7000, 1000)).toBe(8000);
  });
});
