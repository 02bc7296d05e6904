import { useEffect, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import { PROVIDER_LABELS, videoLength, type VideoResource } from '@branchify/shared';
import { storedFrame, type FrameResult } from './poster-frames';

/** What a poster shows; with the library's `id` and `source_url`, a direct URL's frame can be drawn and stored. */
export type PosterVideo = Pick<VideoResource, 'provider' | 'external_id' | 'thumbnail' | 'duration'> & Partial<Pick<VideoResource, 'id' | 'source_url'>>;

/**
 * The picture for a video: the stored thumbnail (our uploads or https), else the provider's own
 * (YouTube serves one for every id), else none.
 */
const posterSource = (video: PosterVideo): string | null => {
  const stored = video.thumbnail;
  if (stored && (stored.startsWith('/uploads/') || stored.startsWith('https://'))) return stored;
  if (video.provider === 'youtube' && video.external_id && /^[A-Za-z0-9_-]{11}$/.test(video.external_id)) {
    return `https://i.ytimg.com/vi/${video.external_id}/mqdefault.jpg`;
  }
  return null;
};

/**
 * A direct-URL library video without a picture: the frame drawn from its clip and stored as its
 * poster (once; later views get it from the video itself), or why there is none.
 */
const useDrawnFrame = (video: PosterVideo | null, hasPicture: boolean): FrameResult | null => {
  const id = video?.id;
  const url = video?.provider === 'generic' && !hasPicture ? (video.source_url ?? null) : null;
  const [result, setResult] = useState<{ id: number; frame: FrameResult } | null>(null);
  useEffect(() => {
    if (id === undefined || !url) return;
    let live = true;
    void storedFrame({ id, source_url: url }).then((frame) => {
      if (live) setResult({ id, frame });
    });
    return () => {
      live = false;
    };
  }, [id, url]);
  return url && result && result.id === id ? result.frame : null;
};

type SxList = Extract<SxProps<Theme>, readonly unknown[]>;

const isSxList = (sx: SxProps<Theme>): sx is SxList => Array.isArray(sx);

/** An `sx` as a list of styles (to spread into ours): a list as it is, one style as a list of one. */
const sxList = (sx: SxProps<Theme> | undefined): SxList => {
  if (sx === undefined) return [];
  return isSxList(sx) ? sx : [sx];
};

/**
 * A video's poster frame, one look everywhere a video is shown small (library cards, the video
 * picker, the editor's rows, the map's nodes): its picture when there is one that loads (a direct
 * URL's is drawn from the clip when the browser may read it), otherwise a tile with the provider's
 * name and the duration. `children` are drawn over it (a play icon, flags).
 * Its texts are hidden from screen readers: every place that shows a poster names the video itself.
 */
export const VideoPoster = ({ video, sx, children }: { video: PosterVideo | null; sx?: SxProps<Theme>; children?: ReactNode }) => {
  const own = video ? posterSource(video) : null;
  const drawn = useDrawnFrame(video, own !== null);
  const src = own ?? (drawn?.status === 'stored' ? drawn.url : null);
  const [failed, setFailed] = useState<string | null>(null);
  const picture = src && failed !== src ? src : null;
  const length = videoLength(video?.duration);
  return (
    <Box
      data-testid="video-poster"
      data-poster={picture ? 'image' : 'tile'}
      data-frame={drawn?.status}
      sx={[
        { position: 'relative', aspectRatio: '16 / 9', overflow: 'hidden', bgcolor: '#1f2329', color: '#ffffff', display: 'grid', placeItems: 'center' },
        ...sxList(sx),
      ]}
    >
      {picture ? (
        <Box
          component="img"
          src={picture}
          alt=""
          loading="lazy"
          referrerPolicy="no-referrer"
          onError={() => setFailed(picture)}
          sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      ) : (
        video && (
          <Box
            component="span"
            data-testid="poster-provider"
            aria-hidden="true"
            sx={{ position: 'absolute', left: 8, bottom: 6, fontSize: 12, fontWeight: 700, letterSpacing: 0.3 }}
          >
            {PROVIDER_LABELS[video.provider] ?? video.provider}
          </Box>
        )
      )}
      {length && (
        <Box
          component="span"
          data-testid="poster-duration"
          aria-hidden="true"
          sx={{ position: 'absolute', right: 6, bottom: 6, px: 0.5, borderRadius: 0.5, fontSize: 12, bgcolor: 'rgba(0, 0, 0, 0.78)', color: '#ffffff' }}
        >
          {length}
        </Box>
      )}
      {children}
    </Box>
  );
};
