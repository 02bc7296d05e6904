import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, type KeyboardEvent, type RefObject } from 'react';
import { Rnd } from 'react-rnd';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Slider from '@mui/material/Slider';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ZoomInIcon from '@mui/icons-material/ZoomIn';
import ZoomOutIcon from '@mui/icons-material/ZoomOut';
import type { FunnelElement } from '@branchify/shared';
import { usePlayback, type PlaybackStore } from '@branchify/player';
import type { DocumentStore } from './document-store';
import {
  ZOOM_MAX,
  ZOOM_STEP,
  boxStarts,
  contentWidth,
  formatTimecode,
  pxPerSecond,
  pxToTime,
  rowCount,
  scrollKeepingPlayhead,
  timeToPx,
  timelineDuration,
  zoomIn,
  zoomOut,
  type TimelineScale,
} from './timeline-math';
import { ROW_H, TimelineBar } from './TimelineBar';
import { useDocument } from './useDocument';
import { useElementSize } from './useElementSize';

const RULER_H = 24;

/**
 * The selected video's timeline: a ruler of 10 boxes per view-width (zoom adds view-widths), one
 * row per element (at least 4), each element a bar from showAt to hideAt that drags and resizes
 * (react-rnd; snapping to the playhead and the other bars' edges), and the playhead, which seeks
 * the preview when dragged or clicked on the ruler and follows the video while it plays.
 */
export const Timeline = ({
  store,
  editorId,
  playback,
  zoom,
  onZoom,
}: {
  store: DocumentStore;
  editorId: string;
  playback: PlaybackStore;
  zoom: number;
  onZoom: (zoom: number) => void;
}) => {
  const elements = useDocument(store, (s) => s.doc.videos.find((v) => v.editor_id === editorId)?.elements) ?? NONE;
  const libraryDuration = useDocument(store, (s) => s.doc.videos.find((v) => v.editor_id === editorId)?.video?.duration ?? null);
  const selected = useDocument(store, (s) => s.selectedElement);
  const playerDuration = usePlayback(playback, (s) => s.duration);
  const [viewRef, view] = useElementSize<HTMLDivElement>();
  const latest = elements.reduce((m, e) => Math.max(m, e.hideAt), 0);
  const scale: TimelineScale = useMemo(
    () => ({ duration: timelineDuration(playerDuration ?? libraryDuration, latest), viewWidth: Math.max(200, view.width), zoom }),
    [playerDuration, libraryDuration, latest, view.width, zoom],
  );
  const width = contentWidth(scale);
  const rows = rowCount(elements.length);

  // What a bar snaps to, read when a drag ends (not on every frame the playhead moves).
  const elementsNow = useRef(elements);
  elementsNow.current = elements;
  const snapTargetsFor = useCallback(
    (id: string) => [playback.getState().time, ...elementsNow.current.filter((e) => e.id !== id).flatMap((e) => [e.showAt, e.hideAt])],
    [playback],
  );

  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper' }} data-testid="timeline">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1, py: 0.5 }}>
        <Typography variant="subtitle2" component="h3" sx={{ mr: 'auto' }}>
          Timeline <Clock playback={playback} duration={scale.duration} />
        </Typography>
        <ZoomControls zoom={zoom} onZoom={onZoom} />
      </Box>
      <Box ref={viewRef} sx={{ overflowX: 'auto', overflowY: 'auto', maxHeight: 260, position: 'relative' }}>
        <Box sx={{ width, position: 'relative', height: RULER_H + rows * ROW_H }}>
          <Ruler scale={scale} onSeek={(t) => playback.seek(t)} />
          {Array.from({ length: rows }, (_, row) => (
            <Box
              key={row}
              sx={{ position: 'absolute', top: RULER_H + row * ROW_H, left: 0, width, height: ROW_H, bgcolor: row % 2 ? 'action.hover' : 'transparent' }}
            >
              {elements[row] && (
                <TimelineBar store={store} element={elements[row]} scale={scale} selected={elements[row].id === selected} snapTargetsFor={snapTargetsFor} />
              )}
            </Box>
          ))}
          <Playhead playback={playback} scale={scale} height={RULER_H + rows * ROW_H} />
          <FollowPlayhead playback={playback} scale={scale} view={viewRef} />
        </Box>
      </Box>
    </Box>
  );
};

const NONE: FunnelElement[] = [];

/** Zoom out, the zoom slider (percent of extra view-widths) and zoom in. */
const ZoomControls = ({ zoom, onZoom }: { zoom: number; onZoom: (zoom: number) => void }) => (
  <>
    <Tooltip title="Zoom out">
      <span>
        <IconButton size="small" aria-label="Zoom out" disabled={zoom <= 0} onClick={() => onZoom(zoomOut(zoom))}>
          <ZoomOutIcon fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
    <Slider
      aria-label="Zoom"
      size="small"
      min={0}
      max={ZOOM_MAX}
      step={ZOOM_STEP}
      marks
      value={zoom}
      valueLabelDisplay="auto"
      valueLabelFormat={(v) => `${v}%`}
      onChange={(_e, v) => onZoom(v)}
      sx={{ width: 140 }}
    />
    <Tooltip title="Zoom in">
      <span>
        <IconButton size="small" aria-label="Zoom in" disabled={zoom >= ZOOM_MAX} onClick={() => onZoom(zoomIn(zoom))}>
          <ZoomInIcon fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
  </>
);

/** The current time beside the duration, following the video. */
const Clock = ({ playback, duration }: { playback: PlaybackStore; duration: number }) => {
  const time = usePlayback(playback, (s) => s.time);
  return (
    <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
      {formatTimecode(time)} / {formatTimecode(duration)}
    </Box>
  );
};

/** While the video plays, the timeline scrolls to keep the playhead in view. */
const FollowPlayhead = ({ playback, scale, view }: { playback: PlaybackStore; scale: TimelineScale; view: RefObject<HTMLDivElement> }) => {
  const time = usePlayback(playback, (s) => s.time);
  const playing = usePlayback(playback, (s) => s.playing);
  // A zoom keeps the playhead where it was in the view (after the wider content is laid out).
  const before = useRef(scale);
  useLayoutEffect(() => {
    const el = view.current;
    const previous = before.current;
    before.current = scale;
    if (!el || previous === scale || pxPerSecond(previous) === pxPerSecond(scale)) return;
    el.scrollLeft = scrollKeepingPlayhead(playback.getState().time, previous, scale, el.scrollLeft, el.clientWidth);
  }, [scale, view, playback]);
  useEffect(() => {
    const el = view.current;
    if (!el || !playing) return;
    const x = timeToPx(time, scale);
    if (x < el.scrollLeft || x > el.scrollLeft + el.clientWidth - 24) el.scrollLeft = Math.max(0, x - el.clientWidth * 0.2);
  }, [time, playing, scale, view]);
  return null;
};

const Ruler = memo(({ scale, onSeek }: { scale: TimelineScale; onSeek: (seconds: number) => void }) => {
  const starts = boxStarts(scale);
  const boxWidth = contentWidth(scale) / starts.length;
  return (
    <Box
      sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: RULER_H, cursor: 'pointer', borderBottom: 1, borderColor: 'divider' }}
      onPointerDown={(e) => onSeek(pxToTime(e.clientX - e.currentTarget.getBoundingClientRect().left, scale))}
      aria-hidden="true"
      data-testid="timeline-ruler"
    >
      {starts.map((start, i) => (
        <Box
          key={i}
          sx={{
            position: 'absolute',
            top: 0,
            left: i * boxWidth,
            width: boxWidth,
            height: RULER_H,
            borderLeft: 1,
            borderColor: 'divider',
            pl: 0.5,
            fontSize: 11,
            color: 'text.secondary',
            userSelect: 'none',
          }}
        >
          {formatTimecode(start)}
        </Box>
      ))}
    </Box>
  );
});
Ruler.displayName = 'Ruler';

/** The playhead: drag it (or use the arrow keys, Shift for 10 s) to seek the preview. */
const Playhead = ({ playback, scale, height }: { playback: PlaybackStore; scale: TimelineScale; height: number }) => {
  const time = usePlayback(playback, (s) => s.time);
  const frame = useRef<number | null>(null);
  const x = timeToPx(time, scale);
  const seekTo = (px: number) => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      playback.seek(pxToTime(px, scale));
    });
  };
  const onKey = (e: KeyboardEvent) => {
    const step = e.shiftKey ? 10 : 1;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      playback.seek(time + (e.key === 'ArrowLeft' ? -step : step));
    } else if (e.key === 'Home') playback.seek(0);
    else if (e.key === 'End') playback.seek(scale.duration);
  };
  return (
    <Rnd
      bounds="parent"
      dragAxis="x"
      position={{ x: x - 7, y: 0 }}
      size={{ width: 14, height }}
      enableResizing={false}
      onDrag={(_e, d) => seekTo(d.x + 7)}
      onDragStop={(_e, d) => seekTo(d.x + 7)}
      style={{ zIndex: 5 }}
    >
      <Box
        role="slider"
        tabIndex={0}
        aria-label="Playhead"
        aria-valuemin={0}
        aria-valuemax={Math.round(scale.duration)}
        aria-valuenow={Math.round(time * 10) / 10}
        aria-valuetext={formatTimecode(time)}
        onKeyDown={onKey}
        data-testid="playhead"
        sx={{ width: 14, height: '100%', cursor: 'ew-resize', position: 'relative', '&:focus-visible': { outline: '2px solid', outlineColor: 'warning.main' } }}
      >
        <Box sx={{ position: 'absolute', left: 6, top: 0, bottom: 0, width: 2, bgcolor: 'error.main' }} />
        <Box sx={{ position: 'absolute', left: 1, top: 0, width: 12, height: 12, borderRadius: '50%', bgcolor: 'error.main' }} />
      </Box>
    </Rnd>
  );
};
