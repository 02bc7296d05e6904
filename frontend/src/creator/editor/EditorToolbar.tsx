import { Link as RouterLink } from 'react-router-dom';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import InsightsIcon from '@mui/icons-material/Insights';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import type { FunnelResource } from '@branchify/shared';
import { useAlert } from '../../shared/alerts';
import { downloadFunnelExport } from '../../shared/funnel-export';
import { ROUTES } from '../../shared/routes';
import type { DocumentStore } from './document-store';
import { UndoRedoButtons } from './UndoRedoButtons';
import { useDocument } from './useDocument';

/** The page header's actions: saved or not, undo and redo, back, analytics, export (the funnel as last saved), preview and save. */
export const EditorToolbar = ({
  store,
  funnelId,
  previewing,
  onPreview,
  saving,
  onSave,
}: {
  store: DocumentStore;
  funnelId: FunnelResource['id'];
  previewing: boolean;
  onPreview: () => void;
  saving: boolean;
  onSave: () => void;
}) => {
  const dirty = useDocument(store, (s) => s.dirty);
  const empty = useDocument(store, (s) => s.doc.videos.length === 0);
  const alert = useAlert();
  return (
    <>
      {dirty ? (
        <Chip size="small" label="Unsaved changes" sx={{ bgcolor: '#fff4e5', color: '#663c00' }} data-testid="dirty" />
      ) : (
        <Chip size="small" label="All changes saved" data-testid="saved" />
      )}
      <UndoRedoButtons store={store} />
      <Button component={RouterLink} to={ROUTES.FunnelsDashboard}>
        Back to funnels
      </Button>
      <Button component={RouterLink} to={`/funnels/${funnelId}/analytics`} startIcon={<InsightsIcon />}>
        Analytics
      </Button>
      <Button
        startIcon={<FileDownloadIcon />}
        onClick={() => void downloadFunnelExport(funnelId).catch((error: unknown) => alert.error(error))}
        aria-describedby={dirty ? 'editor-export-note' : undefined}
      >
        Export
      </Button>
      {dirty && (
        <span id="editor-export-note" hidden>
          Exports the funnel as last saved; unsaved changes are not in the file.
        </span>
      )}
      <Button variant="outlined" startIcon={<PlayArrowIcon />} disabled={empty} onClick={onPreview}>
        {previewing ? 'Close preview' : 'Preview'}
      </Button>
      <Button variant="contained" disabled={saving || !dirty} onClick={onSave}>
        {saving ? 'Saving...' : 'Save'}
      </Button>
    </>
  );
};
