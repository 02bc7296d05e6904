import TextField, { type TextFieldProps } from '@mui/material/TextField';
import InputAdornment from '@mui/material/InputAdornment';
import SearchIcon from '@mui/icons-material/Search';

/** A small search box with the magnifier in front; other TextField props (margin, autoFocus…) pass through. */
export const SearchField = ({
  label,
  value,
  onChange,
  ...rest
}: { label: string; value: string; onChange: (value: string) => void } & Omit<TextFieldProps, 'label' | 'value' | 'onChange' | 'size' | 'slotProps'>) => (
  <TextField
    size="small"
    {...rest}
    label={label}
    value={value}
    onChange={(e) => onChange(e.target.value)}
    slotProps={{
      input: {
        startAdornment: (
          <InputAdornment position="start">
            <SearchIcon />
          </InputAdornment>
        ),
      },
    }}
  />
);
