import { useCallback } from 'react';
import { useNavigate, type SetURLSearchParams } from 'react-router-dom';
import { useQuickNotice } from '../../shared/dialogs';
import { useModals } from '../../shared/modals';
import { ROUTES } from '../../shared/routes';
import type { DocumentStore, EditorVideo } from './document-store';
import { VideoToFunnelModal } from './VideoPickers';

/** An action the plan does not allow: its message, with 'Upgrade Plan' to the plans page. */
export const useUpgradeNotice = (setParams: SetURLSearchParams) => {
  const notice = useQuickNotice();
  const navigate = useNavigate();
  return useCallback(
    (message: string) =>
      notice({
        message,
        confirmText: 'Upgrade Plan',
        onConfirm: () => {
          setParams({}, { replace: true });
          navigate(ROUTES.SelectSubscriptionPlan);
        },
      }),
    [notice, navigate, setParams],
  );
};

/** The editor's dialogs that change the funnel: add videos from the library, remove a video, delete an element (each asks first). */
export const useEditorDialogs = (store: DocumentStore) => {
  const modals = useModals();
  const notice = useQuickNotice();
  const addVideos = () =>
    modals.open({
      name: 'video-to-funnel',
      title: 'Select Video',
      maxWidth: 'md',
      render: ({ close }) => <VideoToFunnelModal close={close} onAdd={(videos) => store.addVideos(videos)} />,
    });
  const removeVideo = (video: EditorVideo, done?: () => void) => {
    const into = store.branchesInto(video.editor_id);
    notice({
      header: 'Remove video',
      message: (
        <>
          Remove '{video.video?.title ?? 'this video'}' from the funnel? It stays in your library.
          {into.length > 0 && ` ${into.length} branch${into.length > 1 ? 'es lead' : ' leads'} to it and will need a new target before saving.`}
        </>
      ),
      confirmText: 'Remove',
      danger: true,
      onConfirm: () => {
        store.removeVideo(video.editor_id);
        done?.();
      },
    });
  };
  const deleteElement = (elementId: string) =>
    notice({
      header: 'Delete element',
      message: 'Delete this element? You can undo it with Ctrl+Z.',
      confirmText: 'Delete',
      danger: true,
      onConfirm: () => store.deleteElement(elementId),
    });
  return { addVideos, removeVideo, deleteElement };
};
