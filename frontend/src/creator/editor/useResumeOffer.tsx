import { useEffect, useRef } from 'react';
import type { SetURLSearchParams } from 'react-router-dom';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import type { FunnelResource } from '@branchify/shared';
import { useModals } from '../../shared/modals';
import type { EditorStart } from './useOpenVideo';

/** resume-video: where the funnel was last watched, offered once when the editor opens; Yes opens that video there, playing. */
export const useResumeOffer = (funnel: FunnelResource, setStart: (start: EditorStart) => void, setParams: SetURLSearchParams) => {
  const modals = useModals();
  const askedToResume = useRef(false);
  useEffect(() => {
    if (askedToResume.current) return;
    askedToResume.current = true;
    const last = funnel.last_view_state;
    if (!last || last.last_watch_time <= 0 || !funnel.videos.some((v) => v.editor_id === last.editor_id)) return;
    modals.open({
      name: 'resume-video',
      title: 'Do you want to resume?',
      maxWidth: 'xs',
      render: ({ close }) => (
        <DialogActions>
          <Button onClick={close}>No</Button>
          <Button
            variant="contained"
            autoFocus
            onClick={() => {
              close();
              setStart({ time: last.last_watch_time, autoplay: true });
              setParams({ video: last.editor_id });
            }}
          >
            Yes
          </Button>
        </DialogActions>
      ),
    });
  }, [funnel.last_view_state, funnel.videos, modals, setStart, setParams]);
};
