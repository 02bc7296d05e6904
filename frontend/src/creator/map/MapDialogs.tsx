import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogContent from '@mui/material/DialogContent';
import AddIcon from '@mui/icons-material/Add';
import type { VideoResource } from '@branchify/shared';
import type { EditorVideo } from '../editor/document-store';
import { ListVideoModal, VideoToFunnelModal } from '../editor/VideoPickers';

/**
 * 'Branch to…' on the map: the funnel's other videos to pick from, and 'Add a video from the
 * library' (the editor's own picker), whose picks join the funnel with a branch to each. Without
 * `videos` it is the library picker alone (adding videos to the map).
 */
export const BranchToDialog = ({
  videos,
  close,
  onPick,
  onAddFromLibrary,
}: {
  videos?: readonly EditorVideo[];
  close: () => void;
  onPick?: (editorId: string) => void;
  onAddFromLibrary: (videos: VideoResource[]) => void;
}) => {
  const [library, setLibrary] = useState(!videos || videos.length === 0);
  if (library || !videos) return <VideoToFunnelModal close={close} onAdd={onAddFromLibrary} />;
  return (
    <>
      <DialogContent sx={{ pt: 0, pb: 0 }}>
        <Button startIcon={<AddIcon />} onClick={() => setLibrary(true)}>
          Add a video from the library
        </Button>
      </DialogContent>
      <ListVideoModal
        videos={videos}
        selected={null}
        onPick={(editorId) => {
          close();
          onPick?.(editorId);
        }}
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 1 }}>
        <Button onClick={close}>Cancel</Button>
      </Box>
    </>
  );
};

/** Where a button on the map leads: one of the funnel's videos (the editor's own picker). */
export const ChangeTargetDialog = ListVideoModal;
