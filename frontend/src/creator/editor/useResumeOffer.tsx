import { useCallback, useEffect, useState } from 'react';
import type { SetURLSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { clockTime, messageTemplates, type FunnelResource } from '@branchify/shared';
import { useSession } from '../../shared/session';
import type { EditorStart } from './useOpenVideo';

/** Where this creator left a video's timeline in this funnel. */
interface LeftAt {
  editorId: string;
  time: number;
}

/** Kept in this browser, per account and funnel: the creator's own place, never a viewer's. */
const storageKey = (userId: number | string, funnelId: number | string) => `branchify:editor-left-at:${userId}:${funnelId}`;

const readLeftAt = (key: string): LeftAt | null => {
  try {
    const parsed = JSON.parse(window.localStorage.getItem(key) ?? 'null') as Partial<LeftAt> | null;
    return parsed && typeof parsed.editorId === 'string' && typeof parsed.time === 'number' && parsed.time > 0
      ? { editorId: parsed.editorId, time: parsed.time }
      : null;
  } catch {
    return null;
  }
};

const writeLeftAt = (key: string, at: LeftAt | null): void => {
  try {
    if (at && at.time > 0) window.localStorage.setItem(key, JSON.stringify(at));
    else window.localStorage.removeItem(key);
  } catch {
    // Storage refused (private mode, full): the offer is a convenience.
  }
};

export interface ResumeOffer {
  editorId: string;
  time: number;
  /** The video's title, or its place in the funnel. */
  video: string;
}

/**
 * resume-video: when the editor opens on a funnel with resume on, the place where this creator
 * last left a video's timeline (in this browser), offered once; what viewers watched plays no part.
 * `remember` records where a video's editor was closed.
 */
export const useResumeOffer = (funnel: FunnelResource, setStart: (start: EditorStart) => void, setParams: SetURLSearchParams) => {
  const { user } = useSession();
  const key = user ? storageKey(user.id, funnel.id) : null;
  const [offer, setOffer] = useState<ResumeOffer | null>(() => {
    if (!key || !funnel.settings.enable_resume_play) return null;
    const left = readLeftAt(key);
    const at = left ? funnel.videos.findIndex((v) => v.editor_id === left.editorId) : -1;
    if (!left || at < 0) return null;
    return { ...left, video: funnel.videos[at].video?.title ?? `Video ${at + 1}` };
  });
  const dismiss = useCallback(() => setOffer(null), []);
  const remember = useCallback((editorId: string, time: number) => key && writeLeftAt(key, { editorId, time }), [key]);
  /** Yes: that video's editor, opened there and playing. */
  const resume = useCallback(
    (at: ResumeOffer) => {
      setOffer(null);
      setStart({ time: at.time, autoplay: true });
      setParams({ video: at.editorId });
    },
    [setStart, setParams],
  );
  return { offer, dismiss, resume, remember };
};

/**
 * The offer, in the page (nothing is blocked meanwhile): which video and where, Yes to open it
 * there, No or Escape (outside a dialog) to let it go.
 */
export const ResumeOfferBar = ({
  offer,
  onResume,
  onDismiss,
}: {
  offer: ResumeOffer | null;
  onResume: (offer: ResumeOffer) => void;
  onDismiss: () => void;
}) => {
  useEffect(() => {
    if (!offer) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (e.target instanceof Element && e.target.closest('[role="dialog"], [role="menu"], [role="listbox"]')) return;
      onDismiss();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [offer, onDismiss]);
  if (!offer) return null;
  return (
    <Alert
      severity="info"
      role="status"
      data-testid="resume-offer"
      sx={{ mb: 2, flexWrap: 'wrap', '& .MuiAlert-action': { ml: { xs: 0, sm: 'auto' }, pl: { xs: 0, sm: 2 } } }}
      action={
        <>
          <Button color="inherit" size="small" onClick={onDismiss}>
            No
          </Button>
          <Button color="inherit" size="small" variant="outlined" onClick={() => onResume(offer)}>
            Yes, resume
          </Button>
        </>
      }
    >
      {messageTemplates.editorResumeOffer(offer.video, clockTime(offer.time))}
    </Alert>
  );
};
