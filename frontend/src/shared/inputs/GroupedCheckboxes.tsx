import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import type { SelectOption } from './SelectInput';

/**
 * Grouped checkboxes: options in the select's format (`{label, value}`, a value being a string or a
 * group `{label, data[]}`), each group a fieldset with its legend; the value is the checked values.
 */
export const GroupedCheckboxes = ({
  name,
  label,
  options,
  value,
  onChange,
  onBlur,
  error,
  helperText,
  disabled,
}: {
  name: string;
  label: string;
  options: SelectOption[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  onBlur?: () => void;
  error?: string;
  helperText?: string;
  disabled?: boolean;
}) => {
  const helperId = `${name}-helper-text`;
  const toggle = (option: string, checked: boolean) => onChange(checked ? [...value.filter((v) => v !== option), option] : value.filter((v) => v !== option));
  const box = (o: { label: string; value: string }) => (
    <FormControlLabel
      key={o.value}
      label={o.label}
      control={
        <Checkbox
          name={`${name}.${o.value}`}
          checked={value.includes(o.value)}
          onChange={(e) => toggle(o.value, e.target.checked)}
          onBlur={onBlur}
          disabled={disabled}
        />
      }
    />
  );
  return (
    <FormControl
      component="fieldset"
      margin="normal"
      error={Boolean(error)}
      disabled={disabled}
      data-input={name}
      aria-describedby={error || helperText ? helperId : undefined}
    >
      <FormLabel component="legend">{label}</FormLabel>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 4 }}>
        {options.map((o) =>
          typeof o.value === 'string' ? (
            <FormGroup key={o.value}>{box({ label: o.label, value: o.value })}</FormGroup>
          ) : (
            <FormControl key={`group-${o.label}`} component="fieldset" margin="dense">
              <FormLabel component="legend" sx={{ fontSize: '0.875rem' }}>
                {o.value.label || o.label}
              </FormLabel>
              <FormGroup row>{o.value.data.map((d) => box({ label: d.label, value: d.value }))}</FormGroup>
            </FormControl>
          ),
        )}
      </Box>
      {(error || helperText) && <FormHelperText id={helperId}>{error ?? helperText}</FormHelperText>}
    </FormControl>
  );
};
