import Button, { type ButtonProps } from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';

type SubmitProps = Pick<ButtonProps, 'disabled' | 'color' | 'autoFocus'>;

/** A modal form's buttons: Cancel closes it; the submit button says what it does. */
export const FormDialogActions = ({ onCancel, label, ...submit }: SubmitProps & { onCancel: () => void; label: string }) => (
  <DialogActions>
    <Button onClick={onCancel}>Cancel</Button>
    <Button type="submit" variant="contained" {...submit}>
      {label}
    </Button>
  </DialogActions>
);
