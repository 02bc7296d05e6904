import { useId } from 'react';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';

export const Toggle = ({
  name,
  label,
  checked,
  onChange,
  error,
  disabled,
  helperText,
}: {
  name: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
  disabled?: boolean;
  helperText?: string;
}) => {
  // The error or helper text is the switch's description for screen readers.
  const noteId = useId();
  const note = error ?? helperText;
  return (
    <div>
      <FormControlLabel
        control={
          <Switch
            name={name}
            checked={checked}
            disabled={disabled}
            onChange={(e) => onChange(e.target.checked)}
            slotProps={{ input: { 'aria-invalid': Boolean(error), ...(note ? { 'aria-describedby': noteId } : {}) } }}
          />
        }
        label={label}
      />
      {note && (
        <FormHelperText id={noteId} error={Boolean(error)}>
          {note}
        </FormHelperText>
      )}
    </div>
  );
};
