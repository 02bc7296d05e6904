import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import RedoIcon from '@mui/icons-material/Redo';
import UndoIcon from '@mui/icons-material/Undo';
import TextFieldsIcon from '@mui/icons-material/TextFields';
import CallSplitIcon from '@mui/icons-material/CallSplit';
import { PlaybackStore, VideoPlayer, usePlayback } from '@branchify/player';
import type { DocumentStore } from './document-store';
import { EditLayer } from './EditLayer';
import { ElementPanel } from './panels/ElementPanel';
import { Timeline, elementLabel } from './Timeline';
import { ZOOM_DEFAULT, defaultHideAt, formatTimecode, round, timelineDuration, type TimelineScale } from './timeline-math';
import { useDocument } from './useDocument';

/** A keystroke meant for a text field, not for the editor's shortcuts. */
const typing = (e: KeyboardEvent) => {
  const t = e.target as HTMLElement;
  return t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName);
};

/**
 * funnel-video-editor ('Editor'): one video of the funnel, full screen. The preview is the
 * player's own view with the editing layer over it; the timeline below drives the same playback
 * store; the side panel edits the selected element. Done closes it (the funnel is saved from the
 * page). Keys: Delete removes the selected element (after asking), Escape goes Back, Ctrl+Z / Ctrl+Shift+Z undo and redo.
 */
export const FunnelVideoEditor = ({
  store,
  editorId,
  start,
  onDone,
  onRefused,
  onDelete,
}: {
  store: DocumentStore;
  editorId: string;
  /** Where to start (a resume answer): the time, and whether to play at once. */
  start?: { time: number; autoplay: boolean };
  onDone: () => void;
  /** An action the plan does not allow: the message to show with 'Upgrade Plan'. */
  onRefused: (message: string) => void;
  onDelete: (elementId: string) => void;
}) => {
  const video = useDocument(store, (s) => s.doc.videos.find((v) => v.editor_id === editorId) ?? null);
  const videos = useDocument(store, (s) => s.doc.videos);
  const selected = useDocument(store, (s) => s.selectedElement);
  const canUndo = useDocument(store, (s) => s.canUndo);
  const canRedo = useDocument(store, (s) => s.canRedo);
  // Where the player opens is read once: a later answer does not reload it.
  const [opening] = useState(start);
  const [playback] = useState(() => new PlaybackStore({ time: opening?.time ?? 0 }));
  useEffect(() => () => playback.destroy(), [playback]);
  const playerDuration = usePlayback(playback, (s) => s.duration);
  const [zoom, setZoom] = useState(ZOOM_DEFAULT);
  const scaleRef = useRef<TimelineScale | null>(null);
  const elements = video?.elements ?? [];
  const duration = timelineDuration(
    playerDuration ?? video?.video?.duration,
    elements.reduce((m, e) => Math.max(m, e.hideAt), 0),
  );
  const index = videos.findIndex((v) => v.editor_id === editorId);
  const titleId = 'funnel-video-editor-title';

  const add = (type: 'text' | 'branch') => {
    const t = Math.min(playback.getState().time, Math.max(0, duration - 0.1));
    const scale = scaleRef.current ?? { duration, viewWidth: 1000, zoom };
    const result = store.addElement(editorId, type, { showAt: round(t), hideAt: round(defaultHideAt(t, scale)) });
    if (!result.ok) onRefused(result.message);
  };
  const duplicate = (id: string) => {
    const result = store.duplicateElement(id);
    if (!result.ok) onRefused(result.message);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (typing(e)) return;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 'z') {
      e.preventDefault();
      if (e.shiftKey) store.redo();
      else store.undo();
    } else if (mod && e.key.toLowerCase() === 'y') {
      e.preventDefault();
      store.redo();
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && selected) {
      e.preventDefault();
      onDelete(selected);
    }
  };

  const player = useMemo(
    () =>
      video?.video ? (
        <VideoPlayer
          key={video.video.id}
          store={playback}
          provider={video.video.provider}
          embedUrl={video.video.embed_url}
          externalId={video.video.external_id}
          sourceUrl={video.video.source_url}
          title={video.video.title}
          thumbnail={video.video.thumbnail}
          playerTime={opening?.time}
          autoPlay={opening?.autoplay}
          hideBigPlay
          overlays={<EditLayer store={store} editorId={editorId} playback={playback} />}
        />
      ) : null,
    [video?.video, playback, store, editorId, opening],
  );

  return (
    <Dialog
      open
      fullScreen
      onClose={(_e, reason) => {
        if (reason === 'escapeKeyDown' && store.getState().selectedElement) store.clearSelection();
        else onDone();
      }}
      aria-labelledby={titleId}
      data-modal="funnel-video-editor"
      onKeyDown={onKeyDown}
    >
      <AppBar position="static" color="default" elevation={1}>
        <Toolbar sx={{ gap: 1 }}>
          <Typography id={titleId} variant="h6" component="h2">
            Editor
          </Typography>
          <Typography color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }}>
            {video?.video?.title ?? (index >= 0 ? `Video ${index + 1}` : '')}
          </Typography>
          <Button variant="outlined" startIcon={<TextFieldsIcon />} onClick={() => add('text')} disabled={!video}>
            Add text element
          </Button>
          <Button variant="outlined" startIcon={<CallSplitIcon />} onClick={() => add('branch')} disabled={!video}>
            Add branch element
          </Button>
          <Tooltip title="Undo (Ctrl+Z)">
            <span>
              <IconButton aria-label="Undo" disabled={!canUndo} onClick={() => store.undo()}>
                <UndoIcon />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title="Redo (Ctrl+Shift+Z)">
            <span>
              <IconButton aria-label="Redo" disabled={!canRedo} onClick={() => store.redo()}>
                <RedoIcon />
              </IconButton>
            </span>
          </Tooltip>
          <Button variant="contained" onClick={onDone}>
            Done
          </Button>
        </Toolbar>
      </AppBar>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) 400px' }, flex: 1, minHeight: 0 }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', minWidth: 0, minHeight: 0 }}>
          <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', bgcolor: 'grey.900', p: 2, minHeight: 0 }}>
            <Box sx={{ width: '100%', maxWidth: 'calc((100vh - 420px) * 16 / 9)', minWidth: 320 }} data-testid="editor-stage">
              {player ?? <Typography color="common.white">This video has left the library. Remove it from the funnel or add it again.</Typography>}
            </Box>
          </Box>
          {video && <Timeline store={store} editorId={editorId} playback={playback} zoom={zoom} onZoom={setZoom} scaleRef={scaleRef} />}
        </Box>
        <Box component="aside" aria-label="Element settings" sx={{ borderLeft: 1, borderColor: 'divider', overflowY: 'auto', p: 2 }}>
          {selected ? (
            <ElementPanel store={store} videos={videos} duration={duration} onDelete={onDelete} onDuplicate={duplicate} />
          ) : (
            <ElementList elements={elements} onSelect={(id) => store.selectElement(id)} />
          )}
        </Box>
      </Box>
    </Dialog>
  );
};

/** With nothing selected: what is on this video, to pick from (or a hint to add something). */
const ElementList = ({ elements, onSelect }: { elements: ReadonlyArray<Parameters<typeof elementLabel>[0]>; onSelect: (id: string) => void }) => (
  <Box>
    <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
      Elements on this video
    </Typography>
    {elements.length === 0 ? (
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        Move the playhead to where an element should appear, then use Add text element or Add branch element.
      </Typography>
    ) : (
      <List dense aria-label="Elements on this video">
        {elements.map((e) => (
          <ListItem key={e.id} disablePadding>
            <ListItemButton onClick={() => onSelect(e.id)}>
              <ListItemText primary={elementLabel(e)} secondary={`${formatTimecode(e.showAt)} – ${formatTimecode(e.hideAt)}`} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    )}
  </Box>
);
