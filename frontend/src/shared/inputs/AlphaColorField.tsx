import { useEffect, useId, useRef, useState } from 'react';
import { RgbaStringColorPicker } from 'react-colorful';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { COLOR_FORMAT_HINT, formatColor, parseColor, rgbaString } from './color-value';

/** A checkerboard under the swatch, so transparency shows. */
const CHECKERS = 'repeating-conic-gradient(#c8c8c8 0% 25%, #ffffff 0% 50%) 50% / 10px 10px';

/**
 * A colour with alpha: a swatch that opens react-colorful's RGBA picker (colour area, hue and
 * alpha sliders, each moved with the arrow keys) and a text field that takes hex or rgba. What
 * is stored is `#rrggbb` when opaque, `rgba(r, g, b, a)` otherwise; `fallback` shows while the
 * value is not a colour.
 */
export const AlphaColorField = ({
  label,
  value,
  onChange,
  fallback = '#ffffff',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  fallback?: string;
}) => {
  const id = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const color = parseColor(value) ?? parseColor(fallback)!;
  const shown = formatColor(color);
  const pickerRef = useRef<HTMLDivElement>(null);

  // react-colorful's colour area is a slider without a current value; screen readers need one.
  useEffect(() => {
    if (!anchor) return;
    const frame = requestAnimationFrame(() => {
      const area = pickerRef.current?.querySelector('.react-colorful__saturation [role="slider"]');
      area?.setAttribute('aria-valuenow', '0');
    });
    return () => cancelAnimationFrame(frame);
  }, [anchor]);

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, my: 1 }}>
      <ButtonBase
        aria-label={`${label}: ${shown}`}
        aria-haspopup="dialog"
        aria-expanded={Boolean(anchor)}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ width: 36, height: 28, flex: 'none', borderRadius: 1, border: 1, borderColor: 'divider', background: CHECKERS, overflow: 'hidden' }}
        focusRipple
      >
        <Box component="span" sx={{ position: 'absolute', inset: 0 }} style={{ background: shown }} />
      </ButtonBase>
      <Typography variant="body2" id={`${id}-label`}>
        {label}{' '}
        <Box component="span" sx={{ color: 'text.secondary', fontFamily: 'monospace' }}>
          {shown}
        </Box>
      </Typography>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': label, sx: { p: 2, width: 248 } } as object }}
      >
        <Box ref={pickerRef} data-testid="color-picker">
          <RgbaStringColorPicker color={rgbaString(color)} onChange={(next) => onChange(formatColor(parseColor(next) ?? color))} />
        </Box>
        <ColorText label={label} value={shown} onChange={onChange} />
      </Popover>
    </Box>
  );
};

/** The typed colour: shown as typed while the field has focus, stored whenever it parses (named under the field when it does not). */
const ColorText = ({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) => {
  const [draft, setDraft] = useState<string | null>(null);
  const invalid = draft !== null && parseColor(draft) === null;
  return (
    <TextField
      size="small"
      margin="dense"
      fullWidth
      label={`${label} (hex or rgba)`}
      value={draft ?? value}
      error={invalid}
      helperText={invalid ? COLOR_FORMAT_HINT : undefined}
      onChange={(e) => {
        setDraft(e.target.value);
        const parsed = parseColor(e.target.value);
        if (parsed) onChange(formatColor(parsed));
      }}
      onBlur={() => setDraft(null)}
      slotProps={{ htmlInput: { 'aria-invalid': invalid, spellCheck: false, autoComplete: 'off' } }}
      sx={{ mt: 2 }}
    />
  );
};
