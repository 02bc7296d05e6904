import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { EditorDocument } from './document-store';
import { describePath, type SaveErrors } from './errors';

/** Every problem the last save found, each with Show to open where it is. */
export const SaveErrorsAlert = ({ doc, errors, onShow }: { doc: EditorDocument; errors: SaveErrors; onShow: (path: string) => void }) => {
  const errorList = Object.entries(errors);
  if (errorList.length === 0) return null;
  return (
    <Alert severity="error" sx={{ mb: 2 }} data-testid="save-errors">
      <AlertTitle>Fix these before saving</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2 }}>
        {errorList.map(([path, messages]) => (
          <li key={path}>
            {describePath(doc, path).label}: {messages[0]}{' '}
            {describePath(doc, path).editorId && (
              <Button size="small" onClick={() => onShow(path)}>
                Show
              </Button>
            )}
          </li>
        ))}
      </Box>
    </Alert>
  );
};
