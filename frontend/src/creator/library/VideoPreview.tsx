import { useCallback } from 'react';
import Box from '@mui/material/Box';
import { VideoPlayer } from '@branchify/player';
import type { PlayerCaptionTrack } from '@branchify/shared';
import { useAlert } from '../../shared/alerts';

export interface VideoMeta {
  duration?: number;
}

export interface VideoPreviewProps {
  provider: string;
  embedUrl: string | null;
  externalId?: string | null;
  sourceUrl?: string | null;
  title?: string;
  thumbnail?: string | null;
  autoPlay?: boolean;
  playerTime?: number;
  onTime?: (seconds: number) => void;
  onMeta?: (meta: VideoMeta) => void;
  onError?: (message: string) => void;
  /** Caption tracks: the player's CC menu offers them. */
  captions?: readonly PlayerCaptionTrack[];
}

/**
 * A preview of one video in the Branchify player (@branchify/player's VideoPlayer): the same
 * provider adapters, load_video loader and controls as the public page. When the provider cannot
 * load (YouTube's or Vimeo's script unreachable, a broken URL), the spec's message shows in place
 * of the video and in the alert banner instead of a blank box; Adilo fails
 * silently. The generic preview shows the frame at 2 seconds until played.
 */
export const VideoPreview = ({
  provider,
  embedUrl,
  externalId,
  sourceUrl,
  title,
  thumbnail,
  autoPlay,
  playerTime,
  onTime,
  onMeta,
  onError,
  captions,
}: VideoPreviewProps) => {
  const alert = useAlert();
  const reportError = useCallback(
    (message: string) => {
      alert.error(message);
      onError?.(message);
    },
    [alert, onError],
  );
  const onReady = useCallback(({ duration }: { duration: number | null }) => onMeta?.(duration ? { duration } : {}), [onMeta]);
  return (
    <Box sx={{ position: 'relative', width: '100%', borderRadius: 1, overflow: 'hidden', bgcolor: '#000' }} data-testid="video-preview">
      <VideoPlayer
        embedUrl={embedUrl}
        provider={provider}
        externalId={externalId}
        sourceUrl={sourceUrl}
        title={title ?? 'Video preview'}
        thumbnail={thumbnail}
        autoPlay={autoPlay}
        playerTime={playerTime}
        onTime={onTime}
        onReady={onReady}
        onError={reportError}
        captions={captions}
      />
    </Box>
  );
};
