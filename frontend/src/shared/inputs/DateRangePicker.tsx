import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';

export interface DateRange {
  from: string;
  to: string;
}

const FORMAT = 'YYYY-MM-DD';
const toDate = (value: string): Dayjs | null => (value ? dayjs(value) : null);
const toText = (date: Dayjs | null): string => (date && date.isValid() ? date.format(FORMAT) : '');

/**
 * The date-range picker: placeholder 'Select date range', YYYY-MM-DD, weeks starting on Sunday,
 * confirm 'OK'. Each end is typed (keyboard) or picked from a calendar.
 */
export const DateRangePicker = ({ label, value, onChange }: { label: string; value: DateRange | null; onChange: (range: DateRange) => void }) => {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [draft, setDraft] = useState<DateRange>(value ?? { from: '', to: '' });
  const open = (target: HTMLElement) => {
    setDraft(value ?? { from: '', to: '' });
    setAnchor(target);
  };
  return (
    <>
      <TextField
        label={label}
        placeholder="Select date range"
        value={value ? `${value.from} – ${value.to}` : ''}
        onClick={(e) => open(e.currentTarget)}
        onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && open(e.currentTarget)}
        slotProps={{ htmlInput: { readOnly: true } }}
        fullWidth
      />
      <Popover open={Boolean(anchor)} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}>
        {/* dayjs's default 'en' locale: weeks start on Sunday. */}
        <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="en">
          <Box sx={{ p: 2, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <DatePicker
              label="From"
              format={FORMAT}
              value={toDate(draft.from)}
              onChange={(date) => setDraft((d) => ({ ...d, from: toText(date) }))}
              slotProps={{ textField: { sx: { width: 190 } } }}
            />
            <DatePicker
              label="To"
              format={FORMAT}
              value={toDate(draft.to)}
              onChange={(date) => setDraft((d) => ({ ...d, to: toText(date) }))}
              slotProps={{ textField: { sx: { width: 190 } } }}
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
        </LocalizationProvider>
      </Popover>
    </>
  );
};
