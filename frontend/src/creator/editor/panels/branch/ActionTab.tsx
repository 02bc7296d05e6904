import Button from '@mui/material/Button';
import type { Branch } from '@branchify/shared';
import { useModals } from '../../../../shared/modals';
import type { BranchElement, DocumentStore, EditorVideo } from '../../document-store';
import { useFieldError } from '../../errors';
import { NumberValue, PanelSection, Row, SelectValue, ToggleValue } from '../../fields';
import { clampTimestamp, timestampBounds } from '../../timeline-math';
import { useDocument } from '../../useDocument';
import { ListVideoModal } from '../../VideoPickers';
import { CLICK_ACTION_OPTIONS } from '../options';
import { UrlValue, type SetBranch } from './shared';
import { AssignmentsValue, ConditionValue } from '../../logic/LogicFields';

/** Action tab: what the selected button does when clicked (open a URL, branch to a video, jump to a time). */
export const ActionTab = ({
  store,
  element,
  branch,
  videos,
  duration,
}: {
  store: DocumentStore;
  element: BranchElement;
  branch: Branch;
  videos: readonly EditorVideo[];
  duration: number;
}) => {
  const doc = useDocument(store, (s) => s.doc);
  const index = element.data.branches.findIndex((b) => b.id === branch.id);
  const linkError = useFieldError(doc, element.id, `data.branches.${index}.externalLink`);
  const videoError = useFieldError(doc, element.id, `data.branches.${index}.video`);
  const whenError = useFieldError(doc, element.id, `data.branches.${index}.when`);
  const setError = useFieldError(doc, element.id, `data.branches.${index}.set`);
  const set: SetBranch = (change, key) => store.updateBranch(element.id, branch.id, change, key);
  const bounds = timestampBounds(duration);
  const setTimestamp = (part: Partial<Branch['timestamp']>) =>
    set((b) => ({ ...b, timestamp: clampTimestamp({ ...b.timestamp, ...part }, duration) }), 'timestamp');
  return (
    <PanelSection title="When clicked">
      <ConditionValue
        label="Show this button only when"
        value={branch.when}
        variables={doc.variables}
        saveError={whenError}
        testId="branch-condition"
        onChange={(when) => set((b) => ({ ...b, when }), 'when')}
      />
      <AssignmentsValue value={branch.set} variables={doc.variables} saveError={setError} onChange={(next) => set((b) => ({ ...b, set: next }), 'set')} />
      <SelectValue
        label="Click action"
        value={branch.onclick}
        options={CLICK_ACTION_OPTIONS}
        onChange={(onclick) => set((b) => ({ ...b, onclick }), 'onclick')}
      />
      {branch.onclick === 'url' && (
        <>
          <UrlValue label="URL" value={branch.externalLink ?? ''} error={linkError} onChange={(externalLink) => set((b) => ({ ...b, externalLink }), 'url')} />
          <ToggleValue
            label="Open links in a new tab"
            checked={element.data.settings.externalLink}
            onChange={(externalLink) =>
              store.updateBranchElement(element.id, (e) => ({ ...e, data: { ...e.data, settings: { ...e.data.settings, externalLink } } }))
            }
          />
        </>
      )}
      {branch.onclick === 'branch' && <VideoTarget branch={branch} videos={videos} error={videoError} set={set} />}
      {branch.onclick === 'timestamp' && (
        <Row>
          <NumberValue label="Hours" min={0} max={bounds.hours} value={branch.timestamp.hours} onChange={(hours) => setTimestamp({ hours })} />
          <NumberValue label="Minutes" min={0} max={bounds.minutes} value={branch.timestamp.minutes} onChange={(minutes) => setTimestamp({ minutes })} />
          <NumberValue label="Seconds" min={0} max={bounds.seconds} value={branch.timestamp.seconds} onChange={(seconds) => setTimestamp({ seconds })} />
        </Row>
      )}
    </PanelSection>
  );
};

/** Branch to video: the target, picked from a list or from the funnel's videos with their posters. */
const VideoTarget = ({ branch, videos, error, set }: { branch: Branch; videos: readonly EditorVideo[]; error?: string; set: SetBranch }) => {
  const modals = useModals();
  const videoOptions = [
    ...(branch.video && !videos.some((v) => v.editor_id === branch.video) ? [{ value: branch.video, label: 'A removed video: choose another' }] : []),
    ...videos.map((v, i) => ({ value: v.editor_id, label: v.video?.title ?? `Video ${i + 1}` })),
  ];
  return (
    <>
      <SelectValue
        label="Branch to video"
        value={branch.video ?? ''}
        options={videoOptions}
        error={error}
        onChange={(video) => set((b) => ({ ...b, video }), 'video')}
      />
      <Button
        size="small"
        onClick={() =>
          modals.open({
            name: 'list-video',
            title: 'Select Video',
            maxWidth: 'md',
            render: ({ close }) => (
              <ListVideoModal
                videos={videos}
                selected={branch.video}
                onPick={(editorId) => {
                  set((b) => ({ ...b, video: editorId }), 'video');
                  close();
                }}
              />
            ),
          })
        }
      >
        Choose from the funnel's videos
      </Button>
    </>
  );
};
