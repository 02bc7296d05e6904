import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

/** The signing secret, shown once after creation: afterwards only its last characters are. */
export const SecretDialog = ({ secret, onClose }: { secret: string | null; onClose: () => void }) => (
  <Dialog open={Boolean(secret)} onClose={onClose} aria-labelledby="webhook-secret-title" maxWidth="sm" fullWidth>
    <DialogTitle id="webhook-secret-title">Signing secret</DialogTitle>
    <DialogContent>
      <Typography variant="body2" sx={{ mb: 2 }}>
        Copy this secret now and store it with your receiver: it is shown only once. Every request is signed the Standard Webhooks way (webhook-id,
        webhook-timestamp and webhook-signature headers): give this secret to a Standard Webhooks library to verify it.
      </Typography>
      <TextField
        label="Signing secret"
        value={secret ?? ''}
        fullWidth
        slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'webhook-secret', spellCheck: false }, inputLabel: { shrink: true } }}
        onFocus={(e) => e.target.select()}
      />
    </DialogContent>
    <DialogActions>
      <Button onClick={() => void navigator.clipboard?.writeText(secret ?? '').catch(() => undefined)}>Copy</Button>
      <Button variant="contained" onClick={onClose}>
        Done
      </Button>
    </DialogActions>
  </Dialog>
);
