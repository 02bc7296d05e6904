import { VIDEO_PROVIDERS } from '@branchify/shared';
import { useInput } from 'react-admin';
import { GroupedCheckboxes } from '../../shared/inputs/GroupedCheckboxes';
import { VIDEO_SOURCE_OPTIONS } from './labels';

/**
 * The plan's video sources as grouped checkboxes. The stored `null` (every source, those added
 * later included) shows as all ticked, and ticking them all stores `null` again.
 */
export const VideoSourcesInput = () => {
  // Kept as stored: react-admin's default format would turn null into ''.
  const { field, fieldState } = useInput<string[] | null>({
    source: 'video_sources',
    defaultValue: null,
    format: (v: string[] | null) => v,
    parse: (v: string[] | null) => v,
  });
  // react-hook-form types a field's value as any; `format` above hands it over as stored.
  const stored = field.value as string[] | null;
  const value = Array.isArray(stored) ? stored : [...VIDEO_PROVIDERS];
  const onChange = (next: string[]) => {
    const ordered = VIDEO_PROVIDERS.filter((p) => next.includes(p));
    field.onChange(ordered.length === VIDEO_PROVIDERS.length ? null : ordered);
  };
  const helperText = !value.length
    ? 'With none ticked, users on this plan cannot add any video.'
    : value.length === VIDEO_PROVIDERS.length
      ? 'Every source is allowed, including any added to the app later.'
      : 'Users on this plan can add videos from the ticked sources only.';
  return (
    <GroupedCheckboxes
      name="video_sources"
      label="Video sources"
      options={VIDEO_SOURCE_OPTIONS}
      value={value}
      onChange={onChange}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
      helperText={helperText}
    />
  );
};
