import { useEffect, useId, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Slider from '@mui/material/Slider';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { AlphaColorField } from '../../shared/inputs/AlphaColorField';
import { clamp, formatTimecode, parseClampedTime } from './timeline-math';

/**
 * The editor panels' inputs: each edits one value of the document at once (the preview follows
 * as you type), numbers clamp to their bounds, and every input is labelled for screen readers.
 */

export const PanelSection = ({ title, children }: { title: string; children: ReactNode }) => (
  <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mb: 2 }}>
    <Typography component="legend" variant="overline" sx={{ display: 'block', color: 'text.secondary', mb: 0.5 }}>
      {title}
    </Typography>
    {children}
  </Box>
);

export const Row = ({ children }: { children: ReactNode }) => <Box sx={{ display: 'flex', gap: 1, '& > *': { flex: 1, minWidth: 0 } }}>{children}</Box>;

export const TextValue = ({
  label,
  value,
  onChange,
  multiline = false,
  error,
  helperText,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  error?: string;
  helperText?: string;
  placeholder?: string;
}) => (
  <TextField
    size="small"
    margin="dense"
    fullWidth
    label={label}
    value={value}
    placeholder={placeholder}
    onChange={(e) => onChange(e.target.value)}
    multiline={multiline}
    minRows={multiline ? 2 : undefined}
    error={Boolean(error)}
    helperText={error ?? helperText}
    slotProps={{ htmlInput: { 'aria-invalid': Boolean(error) } }}
  />
);

/**
 * A number kept within [min, max]: what is typed shows as typed, and is clamped (and stored)
 * when it parses; leaving the field shows the stored value again.
 */
export const NumberValue = ({
  label,
  value,
  onChange,
  min,
  max,
  step = 1,
  unit,
}: {
  label: string;
  value: number;
  onChange: (value: number) => void;
  min: number;
  max: number;
  step?: number;
  unit?: string;
}) => {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <TextField
      size="small"
      margin="dense"
      fullWidth
      type="number"
      label={unit ? `${label} (${unit})` : label}
      value={draft ?? String(value)}
      onChange={(e) => {
        setDraft(e.target.value);
        const n = Number(e.target.value);
        if (e.target.value.trim() !== '' && Number.isFinite(n)) onChange(clamp(n, min, max));
      }}
      onBlur={() => setDraft(null)}
      slotProps={{ htmlInput: { min, max, step } }}
    />
  );
};

export const SelectValue = <T extends string | number>({
  label,
  value,
  options,
  onChange,
  error,
}: {
  label: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T) => void;
  error?: string;
}) => {
  const id = useId();
  return (
    <TextField
      select
      size="small"
      margin="dense"
      fullWidth
      id={id}
      label={label}
      value={String(value)}
      error={Boolean(error)}
      helperText={error}
      onChange={(e) => {
        const picked = options.find((o) => String(o.value) === e.target.value);
        if (picked) onChange(picked.value);
      }}
    >
      {options.map((o) => (
        <MenuItem key={String(o.value)} value={String(o.value)}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
};

/** A switch with its label, and helper text under it that screen readers read as the switch's description. */
export const ToggleValue = ({
  label,
  helperText,
  checked,
  onChange,
}: {
  label: string;
  helperText?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) => {
  const helpId = useId();
  return (
    <>
      <FormControlLabel
        sx={{ display: 'flex', my: 0.25 }}
        control={
          <Switch
            size="small"
            checked={checked}
            onChange={(e) => onChange(e.target.checked)}
            slotProps={{ input: helperText ? { 'aria-describedby': helpId } : {} }}
          />
        }
        label={label}
      />
      {helperText && (
        <FormHelperText id={helpId} sx={{ mt: 0, mb: 1 }}>
          {helperText}
        </FormHelperText>
      )}
    </>
  );
};

/** A colour with alpha (react-colorful's RGBA picker, or typed as hex or rgba), labelled. */
export const ColorValue = ({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) => (
  <AlphaColorField label={label} value={value} onChange={onChange} />
);

/** Opacity 0 to 1 in steps of 0.1 (default 1). */
export const OpacityValue = ({ label, value, onChange }: { label: string; value: number; onChange: (value: number) => void }) => (
  <Box sx={{ px: 1 }}>
    <Typography variant="body2" id={`${label}-opacity`}>
      {label}: {value.toFixed(1)}
    </Typography>
    <Slider
      aria-labelledby={`${label}-opacity`}
      min={0}
      max={1}
      step={0.1}
      marks
      value={value}
      onChange={(_e, v) => onChange(Math.round(v * 10) / 10)}
      size="small"
    />
  </Box>
);

/**
 * A time typed as h:m:s, m:s or s, clamped to [min, max] when it parses; what does not parse is
 * named under the field and not stored.
 */
export const TimeValue = ({
  label,
  value,
  onChange,
  min,
  max,
}: {
  label: string;
  value: number;
  onChange: (seconds: number) => void;
  min: number;
  max: number;
}) => {
  const [draft, setDraft] = useState<string | null>(null);
  const shown = formatTimecode(value);
  useEffect(() => setDraft(null), [shown]);
  const invalid = draft !== null && parseClampedTime(draft, min, max) === null;
  const commit = () => {
    if (draft === null) return;
    const parsed = parseClampedTime(draft, min, max);
    if (parsed !== null) onChange(parsed);
    setDraft(null);
  };
  return (
    <TextField
      size="small"
      margin="dense"
      fullWidth
      label={label}
      value={draft ?? shown}
      error={invalid}
      helperText={invalid ? 'Use h:m:s, m:s or seconds' : undefined}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') setDraft(null);
      }}
      slotProps={{ htmlInput: { 'aria-invalid': invalid, inputMode: 'decimal' } }}
    />
  );
};
