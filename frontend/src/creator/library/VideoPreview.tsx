import { useEffect, useRef } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { MESSAGES } from '@branchify/config/src/messages';
import { isVideoProvider } from '@branchify/config/src/content/video-sources';

/** Generic previews show the frame at 2 seconds (spec section 9). */
export const GENERIC_PREVIEW_AT = 2;

export interface VideoMeta {
  duration?: number;
  width?: number;
  height?: number;
}

/**
 * A preview of a library video: the provider's embed in an iframe, or a <video> for a direct URL.
 * It says what is wrong instead of showing an empty box (spec section 5's player messages).
 */
export const VideoPreview = ({ provider, embedUrl, onMeta, onError }: { provider: string; embedUrl: string | null; onMeta?: (meta: VideoMeta) => void; onError?: (message: string) => void }) => {
  const videoRef = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const v = videoRef.current;
    if (!v) return;
    const loaded = () => {
      onMeta?.({ duration: Number.isFinite(v.duration) ? v.duration : undefined, width: v.videoWidth, height: v.videoHeight });
      if (v.duration > GENERIC_PREVIEW_AT) v.currentTime = GENERIC_PREVIEW_AT;
    };
    const failed = () => onError?.(MESSAGES.playerLoadFailed);
    v.addEventListener('loadedmetadata', loaded);
    v.addEventListener('error', failed);
    return () => {
      v.removeEventListener('loadedmetadata', loaded);
      v.removeEventListener('error', failed);
    };
  }, [embedUrl, onMeta, onError]);

  let problem: string | null = null;
  if (!embedUrl || !provider) problem = MESSAGES.couldntGetPlayer;
  else if (!isVideoProvider(provider)) problem = MESSAGES.providerNotLoaded;

  return (
    <Box sx={{ position: 'relative', width: '100%', aspectRatio: '16 / 9', bgcolor: '#000', borderRadius: 1, overflow: 'hidden' }} data-testid="video-preview">
      {problem ? (
        <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', color: '#fff', p: 2 }}>
          <Typography>{problem}</Typography>
        </Box>
      ) : provider === 'generic' ? (
        <video ref={videoRef} key={embedUrl} src={embedUrl!} controls preload="metadata" style={{ width: '100%', height: '100%' }} aria-label="Video preview" />
      ) : (
        <iframe key={embedUrl} title="Video preview" src={embedUrl!} allow="autoplay; fullscreen; picture-in-picture" allowFullScreen style={{ border: 0, width: '100%', height: '100%' }} />
      )}
    </Box>
  );
};
