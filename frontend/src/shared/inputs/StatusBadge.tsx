import Chip from '@mui/material/Chip';
import type { BadgeStatus } from '../format';

const COLORS: Record<BadgeStatus, { bg: string; fg: string }> = {
  active: { bg: '#e3f7ea', fg: '#146c2e' },
  inactive: { bg: '#eceff1', fg: '#455a64' },
  'in-active': { bg: '#eceff1', fg: '#455a64' },
  suspended: { bg: '#fdecea', fg: '#b3261e' },
  banned: { bg: '#fdecea', fg: '#8c1d18' },
  failed: { bg: '#fdecea', fg: '#b3261e' },
  transparent: { bg: 'transparent', fg: 'inherit' },
  dark: { bg: '#263238', fg: '#ffffff' },
};

/** The status badge: numeric 1 shows 'active', 0 'inactive'. */
export const StatusBadge = ({ status, label }: { status: BadgeStatus | 0 | 1; label?: string }) => {
  const s: BadgeStatus = status === 1 ? 'active' : status === 0 ? 'inactive' : status;
  const c = COLORS[s] ?? COLORS.inactive;
  return <Chip size="small" label={label ?? s} data-badge={s} sx={{ bgcolor: c.bg, color: c.fg, fontWeight: 600, textTransform: 'capitalize' }} />;
};
