import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import TextFieldsIcon from '@mui/icons-material/TextFields';
import CallSplitIcon from '@mui/icons-material/CallSplit';
import { PlaybackStore, VideoPlayer, usePlayback } from '@branchify/player';
import { MESSAGES } from '@branchify/shared';
import { useNarrow } from '../../shared/useNarrow';
import type { DocumentStore, EditorVideo } from './document-store';
import { EditLayer } from './EditLayer';
import { ElementPanel } from './panels/ElementPanel';
import { Timeline } from './Timeline';
import { elementLabel } from './TimelineBar';
import { UndoRedoButtons } from './UndoRedoButtons';
import { MIN_BAR_SECONDS, ZOOM_DEFAULT, defaultHideAt, formatTimecode, round, timelineDuration } from './timeline-math';
import { useDocument } from './useDocument';
import type { EditorStart } from './useOpenVideo';

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
  onLeave,
}: {
  store: DocumentStore;
  editorId: string;
  /** Where to start (a resume answer): the time, and whether to play at once. */
  start?: EditorStart;
  onDone: () => void;
  /** Closed (Done, Escape or leaving the page): where the playhead was. */
  onLeave?: (time: number) => void;
  /** An action the plan does not allow: the message to show with 'Upgrade Plan'. */
  onRefused: (message: string) => void;
  onDelete: (elementId: string) => void;
}) => {
  const video = useDocument(store, (s) => s.doc.videos.find((v) => v.editor_id === editorId) ?? null);
  const videos = useDocument(store, (s) => s.doc.videos);
  const selected = useDocument(store, (s) => s.selectedElement);
  const { playback, player } = useEditorPlayer(store, editorId, video?.video ?? null, start);
  const wide = useWideEnough(playback);
  useOnLeave(playback, onLeave);
  const playerDuration = usePlayback(playback, (s) => s.duration);
  const [zoom, setZoom] = useState(ZOOM_DEFAULT);
  const elements = video?.elements ?? [];
  const duration = timelineDuration(
    playerDuration ?? video?.video?.duration,
    elements.reduce((m, e) => Math.max(m, e.hideAt), 0),
  );
  const index = videos.findIndex((v) => v.editor_id === editorId);
  const titleId = 'funnel-video-editor-title';

  const { add, duplicate } = elementAdders(store, editorId, playback, duration, onRefused);

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
      onKeyDown={shortcuts(store, selected, onDelete)}
    >
      <VideoEditorToolbar
        store={store}
        titleId={titleId}
        title={video?.video?.title ?? (index >= 0 ? `Video ${index + 1}` : '')}
        canAdd={Boolean(video)}
        onAdd={add}
        onDone={onDone}
        narrow={wide.narrow}
      />
      {wide.narrow && <TimelineNeedsWiderScreen />}
      {/* Opened on a wide screen and then narrowed (a tablet turned upright): kept, hidden, as it was. */}
      {wide.shown && (
        <Box sx={{ display: wide.narrow ? 'none' : 'grid', gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) 400px' }, flex: 1, minHeight: 0 }}>
          <Box sx={{ display: 'flex', flexDirection: 'column', minWidth: 0, minHeight: 0 }}>
            <Stage player={player} />
            {video && <Timeline store={store} editorId={editorId} playback={playback} zoom={zoom} onZoom={setZoom} />}
          </Box>
          <Box component="aside" aria-label="Element settings" sx={{ borderLeft: 1, borderColor: 'divider', overflowY: 'auto', p: 2 }}>
            {selected ? (
              <ElementPanel store={store} videos={videos} duration={duration} onDelete={onDelete} onDuplicate={duplicate} />
            ) : (
              <ElementList elements={elements} onSelect={(id) => store.selectElement(id)} />
            )}
          </Box>
        </Box>
      )}
    </Dialog>
  );
};

/** Adding an element at the playhead (for 5 s, or to the video's end), and duplicating one; the plan may refuse either. */
const elementAdders = (store: DocumentStore, editorId: string, playback: PlaybackStore, duration: number, onRefused: (message: string) => void) => ({
  add: (type: 'text' | 'branch') => {
    const t = Math.min(playback.getState().time, Math.max(0, duration - MIN_BAR_SECONDS));
    const result = store.addElement(editorId, type, { showAt: round(t), hideAt: round(defaultHideAt(t, duration)) });
    if (!result.ok) onRefused(result.message);
  },
  duplicate: (id: string) => {
    const result = store.duplicateElement(id);
    if (!result.ok) onRefused(result.message);
  },
});

/** The preview: the player with its editing layer, as large as the screen allows at 16:9 (or why there is none). */
const Stage = ({ player }: { player: ReactNode }) => (
  <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', bgcolor: 'grey.900', p: 2, minHeight: 0 }}>
    <Box sx={{ width: '100%', maxWidth: 'calc((100vh - 420px) * 16 / 9)', minWidth: 320 }} data-testid="editor-stage">
      {player ?? <Typography color="common.white">This video has left the library. Remove it from the funnel or add it again.</Typography>}
    </Box>
  </Box>
);

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

/** Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y) undo and redo; Delete or Backspace removes the selected element (after asking); typing in a field is left alone. */
const shortcuts = (store: DocumentStore, selected: string | null, onDelete: (elementId: string) => void) => (e: KeyboardEvent) => {
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

const TimelineNeedsWiderScreen = () => (
  <Alert severity="info" data-testid="timeline-needs-wider-screen" sx={{ m: 2 }}>
    {MESSAGES.timelineNeedsWiderScreen}
  </Alert>
);

/** Where the playhead was when the editor closes (Done, Escape, or leaving the page). */
const useOnLeave = (playback: PlaybackStore, onLeave: ((time: number) => void) | undefined) => {
  const leave = useRef(onLeave);
  leave.current = onLeave;
  useEffect(() => () => leave.current?.(playback.getState().time), [playback]);
};

/**
 * The stage, the timeline and the panels need a wide screen: below `md` the editor says so instead
 * (and pauses the video); what was opened wide stays mounted, hidden, so nothing is lost.
 */
const useWideEnough = (playback: PlaybackStore) => {
  const narrow = useNarrow();
  const [shown, setShown] = useState(!narrow);
  if (!narrow && !shown) setShown(true);
  useEffect(() => {
    if (narrow) playback.pause();
  }, [narrow, playback]);
  return { narrow, shown };
};

/** The video's player with the editing layer over it, and its playback store (shared with the timeline). */
const useEditorPlayer = (store: DocumentStore, editorId: string, source: EditorVideo['video'], start: EditorStart | undefined) => {
  // Where the player opens is read once: a later answer does not reload it.
  const [opening] = useState(start);
  const [playback] = useState(() => new PlaybackStore({ time: opening?.time ?? 0 }));
  useEffect(() => () => playback.destroy(), [playback]);
  const player = useMemo(
    () =>
      source ? (
        <VideoPlayer
          key={source.id}
          store={playback}
          provider={source.provider}
          embedUrl={source.embed_url}
          externalId={source.external_id}
          sourceUrl={source.source_url}
          title={source.title}
          thumbnail={source.thumbnail}
          playerTime={opening?.time}
          autoPlay={opening?.autoplay}
          hideBigPlay
          captions={source.captions}
          overlays={<EditLayer store={store} editorId={editorId} playback={playback} />}
        />
      ) : null,
    [source, playback, store, editorId, opening],
  );

  return { playback, player };
};

/** The video editor's bar: its title, the add buttons, undo and redo, and Done. */
const VideoEditorToolbar = ({
  store,
  titleId,
  title,
  canAdd,
  onAdd,
  onDone,
  narrow,
}: {
  store: DocumentStore;
  titleId: string;
  title: string;
  canAdd: boolean;
  onAdd: (type: 'text' | 'branch') => void;
  onDone: () => void;
  /** Too narrow to edit: the title and Done only. */
  narrow: boolean;
}) => (
  <AppBar position="static" color="default" elevation={1}>
    <Toolbar sx={{ gap: 1 }}>
      <Typography id={titleId} variant="h6" component="h2">
        Editor
      </Typography>
      <Typography color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }}>
        {title}
      </Typography>
      {!narrow && (
        <>
          <Button variant="outlined" startIcon={<TextFieldsIcon />} onClick={() => onAdd('text')} disabled={!canAdd}>
            Add text element
          </Button>
          <Button variant="outlined" startIcon={<CallSplitIcon />} onClick={() => onAdd('branch')} disabled={!canAdd}>
            Add branch element
          </Button>
          <UndoRedoButtons store={store} />
        </>
      )}
      <Button variant="contained" onClick={onDone}>
        Done
      </Button>
    </Toolbar>
  </AppBar>
);
