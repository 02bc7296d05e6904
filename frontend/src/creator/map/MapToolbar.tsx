import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import CallSplitIcon from '@mui/icons-material/CallSplit';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import OpenInFullIcon from '@mui/icons-material/OpenInFull';
import type { LaidOutEdge, LaidOutNode } from './funnel-graph';
import type { MapItem } from './map-shared';
import type { MapEditor } from './useMapEditing';
import { VISUALLY_HIDDEN } from '../../shared/visually-hidden';

/**
 * The map's actions on what is selected (a video or a button's edge: clicked, or Space on it), for
 * the pointer and the keyboard alike, and how to use the map. The same actions have keys on the
 * focused node or edge.
 */
export const MapToolbar = ({
  editor,
  current,
  byId,
  edgeById,
  onEdit,
}: {
  editor: MapEditor;
  current: MapItem | null;
  byId: ReadonlyMap<string, LaidOutNode>;
  edgeById: ReadonlyMap<string, LaidOutEdge>;
  /** Opens the selected video, or the selected branch in its video, in the editor. */
  onEdit: (at: MapItem) => void;
}) => {
  const node = current?.kind === 'node' ? byId.get(current.id) : undefined;
  const video = node?.kind === 'video' ? node : undefined;
  const edge = current?.kind === 'edge' ? edgeById.get(current.id) : undefined;
  const button = edge?.kind === 'branch' ? edge : undefined;
  return (
    <Box sx={{ mt: 1 }}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }} role="toolbar" aria-label="Map actions">
        <Button size="small" variant="outlined" startIcon={<AddIcon />} onClick={() => editor.addVideos(video?.id ?? null)}>
          Add video
        </Button>
        <Button
          size="small"
          variant="outlined"
          startIcon={<OpenInFullIcon />}
          disabled={!video && !edge}
          onClick={() => current && (video || edge) && onEdit(current)}
          aria-describedby="map-current"
        >
          Edit
        </Button>
        <Button
          size="small"
          variant="outlined"
          startIcon={<CallSplitIcon />}
          disabled={!video}
          onClick={() => video && editor.branchFrom(video.id)}
          aria-describedby="map-current"
        >
          Branch to…
        </Button>
        <Button size="small" startIcon={<DeleteIcon />} disabled={!video} onClick={() => video && editor.removeNode(video.id)} aria-describedby="map-current">
          Remove video
        </Button>
        <Button
          size="small"
          startIcon={<EditIcon />}
          disabled={!button}
          onClick={() => button && editor.changeTarget(button.id)}
          aria-describedby="map-current"
        >
          Change target…
        </Button>
        <Button
          size="small"
          color="error"
          startIcon={<DeleteIcon />}
          disabled={!button}
          onClick={() => button && editor.deleteEdge(button.id)}
          aria-describedby="map-current"
        >
          Delete branch
        </Button>
        <Typography id="map-current" variant="body2" color="text.secondary" sx={{ ml: 'auto' }} data-testid="map-current">
          {video
            ? `Selected video: ${video.title}`
            : edge
              ? `Selected branch: ${edge.text}`
              : 'Select a video or a branch on the map to act on it: click it, or press Space on it.'}
        </Typography>
      </Stack>
      <MapHelp />
    </Box>
  );
};

/** How to use the map, by pointer and by keyboard (the nodes' and edges' description too). */
const MapHelp = () => (
  <Typography id="funnel-map-help" variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
    A click on a video or a branch selects it for these buttons; a double-click, Enter or Edit opens it in the editor. Drag from a video&apos;s right dot to
    another video to add a branch, or to empty space to pick one; drag a branch&apos;s end to another video to change where it leads; drag videos to arrange
    them. Keys on a focused video: Space select, Enter open, B branch, Delete remove; on a branch: Space select, Enter open, T change target, Delete delete.
    Ctrl+Z undoes the last change, Ctrl+Shift+Z redoes it.
  </Typography>
);

/** What the last map action did, said by screen readers. */
export const MapStatus = ({ announcement }: { announcement: string }) => (
  <Box role="status" aria-live="polite" sx={VISUALLY_HIDDEN} data-testid="map-status">
    {announcement}
  </Box>
);
