import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import RedoIcon from '@mui/icons-material/Redo';
import UndoIcon from '@mui/icons-material/Undo';
import type { DocumentStore } from './document-store';
import { useDocument } from './useDocument';

/** Undo and Redo for the funnel's one history: the page's header and the video editor's toolbar show the same pair. */
export const UndoRedoButtons = ({ store }: { store: DocumentStore }) => {
  const canUndo = useDocument(store, (s) => s.canUndo);
  const canRedo = useDocument(store, (s) => s.canRedo);
  return (
    <>
      <Tooltip title="Undo (Ctrl+Z)">
        <span>
          <IconButton aria-label="Undo" disabled={!canUndo} onClick={() => store.undo()}>
            <UndoIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title="Redo (Ctrl+Shift+Z)">
        <span>
          <IconButton aria-label="Redo" disabled={!canRedo} onClick={() => store.redo()}>
            <RedoIcon />
          </IconButton>
        </span>
      </Tooltip>
    </>
  );
};
