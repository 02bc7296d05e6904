import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import type { DocumentStore, EditorVideo } from '../document-store';
import { PanelSection, Row, TimeValue, ToggleValue } from '../fields';
import { MIN_BAR_SECONDS, round } from '../timeline-math';
import { useDocument } from '../useDocument';
import { useFieldError } from '../errors';
import { ConditionValue } from '../logic/LogicFields';
import { BranchPanel } from './BranchPanel';
import { TextPanel } from './TextPanel';

/**
 * The selected element's edit panel: Back (clears the selection), Duplicate, Delete (asks first),
 * when it shows and hides (typed as h:m:s, m:s or s, clamped to the video), and the text or branch
 * fields.
 */
export const ElementPanel = ({
  store,
  videos,
  duration,
  onDelete,
  onDuplicate,
}: {
  store: DocumentStore;
  videos: readonly EditorVideo[];
  duration: number;
  onDelete: (id: string) => void;
  onDuplicate: (id: string) => void;
}) => {
  const id = useDocument(store, (s) => s.selectedElement);
  const element = useDocument(store, (s) =>
    s.selectedElement ? (s.doc.videos.flatMap((v) => v.elements).find((e) => e.id === s.selectedElement) ?? null) : null,
  );
  const variables = useDocument(store, (s) => s.doc.variables);
  const doc = useDocument(store, (s) => s.doc);
  const whenError = useFieldError(doc, id ?? '', 'when');
  if (!id || !element) return null;
  return (
    <Box data-testid="element-panel" data-element-type={element.type}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
        <Button size="small" startIcon={<ArrowBackIcon />} onClick={() => store.clearSelection()}>
          Back
        </Button>
        <Typography variant="subtitle1" component="h3" sx={{ flex: 1, fontWeight: 600 }}>
          {element.type === 'text' ? 'Text element' : 'Branch element'}
        </Typography>
      </Stack>
      <Stack direction="row" spacing={1} sx={{ mb: 1 }}>
        <Button size="small" startIcon={<ContentCopyIcon />} onClick={() => onDuplicate(element.id)}>
          Duplicate
        </Button>
        <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => onDelete(element.id)}>
          Delete
        </Button>
      </Stack>
      <Divider sx={{ mb: 1.5 }} />
      <PanelSection title="Timing">
        <Row>
          <TimeValue
            label="Show at"
            value={element.showAt}
            min={0}
            max={round(element.hideAt - MIN_BAR_SECONDS)}
            onChange={(showAt) => store.setTiming(element.id, { showAt, hideAt: element.hideAt })}
          />
          <TimeValue
            label="Hide at"
            value={element.hideAt}
            min={round(element.showAt + MIN_BAR_SECONDS)}
            max={duration}
            onChange={(hideAt) => store.setTiming(element.id, { showAt: element.showAt, hideAt })}
          />
        </Row>
        <ToggleValue label="Active" checked={element.active !== false} onChange={(active) => store.updateElement(element.id, (e) => ({ ...e, active }))} />
        <ConditionValue
          label="Show only when"
          value={element.when}
          variables={variables}
          saveError={whenError}
          testId="element-condition"
          onChange={(when) => store.updateElement(element.id, (e) => ({ ...e, when }), 'when')}
        />
      </PanelSection>
      {element.type === 'text' ? (
        <TextPanel store={store} element={element} />
      ) : (
        <BranchPanel key={element.id} store={store} element={element} videos={videos} duration={duration} />
      )}
    </Box>
  );
};
