import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';

export interface DateRange {
  from: string;
  to: string;
}

/**
 * The date-range picker: placeholder 'Select date range', YYYY-MM-DD, confirm 'OK'.
 * Native date inputs keep it keyboard-usable; the browser's calendar follows the locale (weeks
 * start on Sunday in en-US).
 */
export const DateRangePicker = ({ label, value, onChange }: { label: string; value: DateRange | null; onChange: (range: DateRange) => void }) => {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [draft, setDraft] = useState<DateRange>(value ?? { from: '', to: '' });
  return (
    <>
      <TextField
        label={label}
        placeholder="Select date range"
        value={value ? `${value.from} – ${value.to}` : ''}
        onClick={(e) => setAnchor(e.currentTarget)}
        onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && setAnchor(e.currentTarget)}
        slotProps={{ htmlInput: { readOnly: true } }}
      />
      <Popover open={Boolean(anchor)} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}>
        <Box sx={{ p: 2, display: 'flex', gap: 1, alignItems: 'center' }}>
          <TextField
            type="date"
            label="From"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="date"
            label="To"
            value={draft.to}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button
            variant="contained"
            disabled={!draft.from || !draft.to}
            onClick={() => {
              onChange(draft.from <= draft.to ? draft : { from: draft.to, to: draft.from });
              setAnchor(null);
            }}
          >
            OK
          </Button>
        </Box>
      </Popover>
    </>
  );
};
