import { useEffect, useRef, useState } from 'react';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ROUTES } from '../../shared/routes';

/** 'Copied' shows for 1500 ms. */
const COPIED_MS = 1500;

const embedCode = (identifier: string, origin: string = window.location.origin): string =>
  `<iframe src="${origin}${ROUTES.Player(identifier)}" width="100%" height="100%" style="aspect-ratio: 16 / 9; border: 0;" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>`;

const copyText = async (text: string, fallback: HTMLTextAreaElement | null): Promise<void> => {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API unavailable (plain http, permissions): select and copy the text area.
    fallback?.select();
    document.execCommand('copy');
  }
};

/** share-funnel: the iframe embed code with a Copy button. */
export const ShareFunnelModal = ({ identifier, close }: { identifier: string; close: () => void }) => {
  const code = embedCode(identifier);
  const [copied, setCopied] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const timer = useRef<number>();
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const copy = async () => {
    await copyText(code, ref.current);
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), COPIED_MS);
  };
  return (
    <>
      <DialogContent sx={{ pt: 0 }}>
        <Typography variant="body2" sx={{ mb: 1 }}>
          Paste this code into your page where the funnel should play.
        </Typography>
        <TextField
          label="Embed code"
          value={code}
          multiline
          minRows={3}
          inputRef={ref}
          slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'embed-code' } }}
          onFocus={(e) => e.target.select()}
        />
      </DialogContent>
      <DialogActions>
        <Typography role="status" aria-live="polite" color="success.main" sx={{ mr: 'auto', pl: 2 }}>
          {copied ? 'Copied' : ''}
        </Typography>
        <Button onClick={close}>Close</Button>
        <Button variant="contained" onClick={() => void copy()}>
          Copy
        </Button>
      </DialogActions>
    </>
  );
};
