import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { MODAL_Z_INDEX } from '../modals';

/** One choice: what it says and the value it stands for. */
interface SelectChoice {
  label: string;
  value: string;
}

/** Select options: `{label, value}`, the value a string or a group `{label, data[]}` of choices. */
export interface SelectOption {
  label: string;
  value: string | { label: string; data: SelectChoice[] };
}

const flatten = (options: SelectOption[]) =>
  options.flatMap((o) =>
    typeof o.value === 'string'
      ? [
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>,
        ]
      : [
          <ListSubheader key={`g-${o.label}`}>{o.value.label || o.label}</ListSubheader>,
          ...o.value.data.map((d) => (
            <MenuItem key={d.value} value={d.value}>
              {d.label}
            </MenuItem>
          )),
        ],
  );

export const SelectInput = ({
  name,
  label,
  value,
  options,
  onChange,
  error,
  disabled,
}: {
  name: string;
  label: string;
  value: string;
  options: SelectOption[];
  onChange: (value: string) => void;
  error?: string;
  disabled?: boolean;
}) => {
  const labelId = `select-${name}-label`;
  return (
    <FormControl fullWidth margin="normal" error={Boolean(error)} disabled={disabled}>
      <InputLabel id={labelId}>{label}</InputLabel>
      <Select
        labelId={labelId}
        id={`select-${name}`}
        name={name}
        label={label}
        value={value}
        onChange={(e) => onChange(String(e.target.value))}
        // The menu opens above the modal host's dialogs, so a select works inside a modal too.
        MenuProps={{ sx: { zIndex: MODAL_Z_INDEX + 1000 } }}
      >
        {flatten(options)}
      </Select>
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
};
