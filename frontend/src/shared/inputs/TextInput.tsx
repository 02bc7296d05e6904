import { useState, type FocusEventHandler, type ReactNode, type Ref } from 'react';
import { useDefaultProps } from '@mui/material/DefaultPropsProvider';
import FormControl, { type FormControlProps } from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';

export type TextInputProps = {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The first server message for this field: shown under the input with a red border. */
  error?: string;
  /** Shows the '(required)' marker after the label. */
  requiredMark?: boolean;
  helperText?: ReactNode;
  id?: string;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  disabled?: boolean;
  required?: boolean;
  placeholder?: string;
  multiline?: boolean;
  rows?: number;
  minRows?: number;
  maxRows?: number;
  inputRef?: Ref<HTMLInputElement | HTMLTextAreaElement>;
  onBlur?: FocusEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  onFocus?: FocusEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  fullWidth?: boolean;
  margin?: FormControlProps['margin'];
  size?: FormControlProps['size'];
  sx?: FormControlProps['sx'];
  slotProps?: { input?: Partial<OutlinedInputProps>; htmlInput?: InputBaseComponentProps; inputLabel?: { shrink?: boolean } };
};

/**
 * The text input, labelled for screen readers, with its field error: MUI's outlined TextField
 * composed from its parts (same markup, ids and classes), because TextField itself always brings
 * its Select (menu, popover, modal), which no text input here uses. The theme's TextField
 * defaults apply (full width, margin); the variant is always outlined.
 */
export const TextInput = (props: TextInputProps) => {
  // The theme's TextField defaults (the app's: full width, normal margin) apply as to a TextField.
  const { name, label, value, onChange, error, requiredMark, helperText, id, slotProps, fullWidth, margin, size, sx, disabled, required, ...input } =
    useDefaultProps({ props, name: 'MuiTextField' });
  const inputId = id ?? `input-${name}`;
  const shownLabel = requiredMark ? `${label} (required)` : label;
  const help = error ?? helperText;
  const helpId = help ? `${inputId}-helper-text` : undefined;
  return (
    <FormControl
      className="MuiTextField-root"
      variant="outlined"
      fullWidth={fullWidth}
      margin={margin}
      size={size}
      sx={sx}
      disabled={disabled}
      required={required}
      error={Boolean(error)}
    >
      <InputLabel htmlFor={inputId} id={`${inputId}-label`} shrink={slotProps?.inputLabel?.shrink}>
        {shownLabel}
      </InputLabel>
      <OutlinedInput
        // A label kept up (shrink) keeps the outline's notch open, as TextField does.
        notched={slotProps?.inputLabel?.shrink}
        {...slotProps?.input}
        {...input}
        id={inputId}
        name={name}
        fullWidth={fullWidth}
        label={shownLabel}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={helpId}
        inputProps={{ 'aria-invalid': Boolean(error), ...slotProps?.htmlInput }}
      />
      {help ? <FormHelperText id={helpId}>{help}</FormHelperText> : null}
    </FormControl>
  );
};

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
