import Box from '@mui/material/Box';
import Slider from '@mui/material/Slider';
import Typography from '@mui/material/Typography';

/** `#rrggbb` + alpha 0..1 ↔ the stored `rgba(r, g, b, a)` or hex. */
const parse = (value: string): { hex: string; alpha: number } => {
  const rgba = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)$/.exec(value.trim());
  if (rgba) {
    const hex = `#${[rgba[1], rgba[2], rgba[3]].map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`;
    return { hex, alpha: rgba[4] === undefined ? 1 : Number(rgba[4]) };
  }
  if (/^#[0-9a-f]{6}$/i.test(value)) return { hex: value, alpha: 1 };
  return { hex: '#ffffff', alpha: 1 };
};
const format = (hex: string, alpha: number): string => {
  if (alpha >= 1) return hex;
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
};

/** The colour picker: default white at full opacity, alpha supported (`alpha={false}`: opaque hex only). */
export const ColorPicker = ({
  name,
  label,
  value = '#ffffff',
  onChange,
  alpha: withAlpha = true,
}: {
  name: string;
  label: string;
  value?: string;
  onChange: (value: string) => void;
  alpha?: boolean;
}) => {
  const parsed = parse(/^#[0-9a-f]{3}$/i.test(value) ? `#${[...value.slice(1)].map((c) => c + c).join('')}` : value);
  const hex = parsed.hex;
  const alpha = withAlpha ? parsed.alpha : 1;
  return (
    <Box sx={{ my: 1 }}>
      <Typography component="label" htmlFor={`color-${name}`} variant="body2">
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <input id={`color-${name}`} type="color" value={hex} onChange={(e) => onChange(format(e.target.value, alpha))} />
        {withAlpha && (
          <Slider
            aria-label={`${label} opacity`}
            min={0}
            max={1}
            step={0.1}
            value={alpha}
            onChange={(_e, v) => onChange(format(hex, v))}
            sx={{ maxWidth: 200 }}
          />
        )}
      </Box>
    </Box>
  );
};
