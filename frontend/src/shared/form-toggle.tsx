import { useController, type FieldValues } from 'react-hook-form';
import { Toggle } from './inputs/Toggle';
import type { BoundProps } from './form';

/** A switch bound to a form field (its own module, so forms without one never load the switch). */
export const FormToggle = <T extends FieldValues, TOut>({
  control,
  name,
  label,
  disabled,
  helperText,
}: BoundProps<T, TOut> & { label: string; disabled?: boolean; helperText?: string }) => {
  const { field, fieldState } = useController({ control, name });
  return (
    <Toggle
      name={name}
      label={label}
      checked={Boolean(field.value)}
      onChange={field.onChange}
      error={fieldState.error?.message}
      disabled={disabled}
      helperText={helperText}
    />
  );
};
