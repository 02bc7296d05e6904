import { MANAGED_BY, PAYMENT_SCHEDULES, PROVIDER_LABELS, VIDEO_PROVIDERS, type PaymentSchedule, type VideoProvider } from '@branchify/shared';
import type { SelectOption } from '../../shared/inputs/SelectInput';

/** How the plan screens name the plan's option values. */
export const SCHEDULE_LABELS: Readonly<Record<PaymentSchedule, string>> = {
  monthly: 'Monthly',
  yearly: 'Yearly',
  'one-time': 'One-time',
  free: 'Free',
};

export const MANAGED_BY_LABELS: Readonly<Record<(typeof MANAGED_BY)[number], string>> = {
  platform: 'Platform',
  self: 'Self-managed (through the API)',
};

export const scheduleChoices = PAYMENT_SCHEDULES.map((id) => ({ id, name: SCHEDULE_LABELS[id] }));
export const managedByChoices = MANAGED_BY.map((id) => ({ id, name: MANAGED_BY_LABELS[id] }));

/** The video sources, grouped as the plan form shows them. */
export const VIDEO_SOURCE_OPTIONS: SelectOption[] = [
  {
    label: 'Video platforms',
    value: { label: 'Video platforms', data: (['youtube', 'vimeo', 'adilo'] as const).map((p) => ({ label: PROVIDER_LABELS[p], value: p })) },
  },
  { label: 'Direct links', value: { label: 'Direct links', data: [{ label: PROVIDER_LABELS.generic, value: 'generic' }] } },
];

/** `null` limits are unlimited. */
export const limitText = (limit: number | null | undefined): string => (limit === null || limit === undefined ? 'Unlimited' : String(limit));

/** `null` allows every source (those added later too); a list allows just those. */
export const videoSourcesText = (sources: readonly string[] | null | undefined): string => {
  if (!sources) return 'All';
  if (!sources.length) return 'None';
  return VIDEO_PROVIDERS.filter((p) => sources.includes(p))
    .map((p: VideoProvider) => PROVIDER_LABELS[p])
    .join(', ');
};
