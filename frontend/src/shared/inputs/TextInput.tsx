import { useState } from 'react';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';

export type TextInputProps = Omit<TextFieldProps, 'error' | 'onChange' | 'value'> & {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The first server message for this field: shown under the input with a red border. */
  error?: string;
  /** Shows the '(required)' marker after the label. */
  requiredMark?: boolean;
};

/** The text input, labelled for screen readers, with its field error. */
export const TextInput = ({ name, label, value, onChange, error, requiredMark, helperText, slotProps, ...rest }: TextInputProps) => (
  <TextField
    {...rest}
    id={rest.id ?? `input-${name}`}
    name={name}
    label={requiredMark ? `${label} (required)` : label}
    value={value}
    onChange={(e) => onChange(e.target.value)}
    error={Boolean(error)}
    helperText={error ?? helperText}
    slotProps={{ ...slotProps, htmlInput: { 'aria-invalid': Boolean(error), ...(slotProps?.htmlInput as object) } }}
  />
);

/** A password field with the hide/show toggle of the change-user-password modal. */
export const PasswordInput = (props: TextInputProps) => {
  const [shown, setShown] = useState(false);
  return (
    <TextInput
      {...props}
      type={shown ? 'text' : 'password'}
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton aria-label={shown ? `Hide ${props.label}` : `Show ${props.label}`} onClick={() => setShown((s) => !s)} edge="end">
                {shown ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
};

/** The text area: 10 rows by default. */
export const TextArea = ({ rows = 10, ...props }: TextInputProps & { rows?: number }) => (
  <TextInput {...props} multiline rows={rows} slotProps={{ htmlInput: { cols: 5 } }} />
);
