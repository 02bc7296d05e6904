import { useController, type Control } from 'react-hook-form';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import { ColorPicker } from '../../shared/inputs/ColorPicker';
import { TextInput } from '../../shared/inputs/TextInput';
import type { CustomizationForm } from './CustomizationPage';

/** The colour variables an admin picks (their `-rgb` variants follow on the server). */
const COLORS: ReadonlyArray<{ name: string; label: string; hint: string }> = [
  { name: 'primary', label: 'Primary', hint: 'Buttons, links and the selected menu item' },
  { name: 'secondary', label: 'Secondary', hint: 'Soft highlights behind selected items' },
  { name: 'accent', label: 'Accent', hint: 'Badges and secondary actions' },
  { name: 'background', label: 'Background', hint: 'Behind every page' },
  { name: 'white', label: 'Surface', hint: 'Cards, sidebar and text on dark colours' },
  { name: 'dark', label: 'Text', hint: 'Headings and body text' },
];

const ColorField = ({ control, name, label, hint }: { control: Control<CustomizationForm>; name: string; label: string; hint: string }) => {
  const { field, fieldState } = useController({ control, name: `app_color_scheme.--${name}` });
  const value = field.value ?? '';
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 2 }}>
      <ColorPicker name={name} label={label} value={value} alpha={false} onChange={field.onChange} />
      <TextInput
        name={`app_color_scheme.--${name}`}
        id={`hex-${name}`}
        label={`${label} hex`}
        value={value}
        onChange={field.onChange}
        onBlur={field.onBlur}
        inputRef={field.ref}
        error={fieldState.error?.message}
        helperText={hint}
        size="small"
        sx={{ mt: 2.5 }}
        slotProps={{ htmlInput: { spellCheck: false } }}
      />
    </Box>
  );
};

export const ColorSchemeFields = ({ control }: { control: Control<CustomizationForm> }) => (
  <Grid container spacing={2}>
    {COLORS.map((c) => (
      <Grid key={c.name} size={{ xs: 12, sm: 6 }}>
        <ColorField control={control} {...c} />
      </Grid>
    ))}
  </Grid>
);
