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
}) => (
  <div>
    <FormControlLabel
      control={
        <Switch
          name={name}
          checked={checked}
          disabled={disabled}
          onChange={(e) => onChange(e.target.checked)}
          slotProps={{ input: { 'aria-invalid': Boolean(error) } }}
        />
      }
      label={label}
    />
    {(error || helperText) && <FormHelperText error={Boolean(error)}>{error ?? helperText}</FormHelperText>}
  </div>
);
