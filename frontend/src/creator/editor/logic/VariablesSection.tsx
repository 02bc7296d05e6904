import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { LOGIC_LIMITS, type FunnelVariable, type VariableType } from '@branchify/shared';
import type { DocumentStore, EditorDocument } from '../document-store';
import type { SaveErrors } from '../errors';
import { NumberValue, PanelSection, Row, SelectValue, TextValue, ToggleValue } from '../fields';

const TYPE_OPTIONS: Array<{ value: VariableType; label: string }> = [
  { value: 'text', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'yesno', label: 'Yes/no' },
];

const withType = (v: FunnelVariable, type: VariableType): FunnelVariable =>
  type === 'text'
    ? { name: v.name, fromUrl: v.fromUrl, type, default: '' }
    : type === 'number'
      ? { name: v.name, fromUrl: v.fromUrl, type, default: 0 }
      : { name: v.name, fromUrl: v.fromUrl, type, default: false };

/** A name not yet taken: var1, var2… */
const freshName = (taken: readonly FunnelVariable[]): string => {
  for (let i = taken.length + 1; ; i += 1) if (!taken.some((v) => v.name === `var${i}`)) return `var${i}`;
};

/**
 * The funnel's variables: name, type, starting value, and whether the viewer's link may set it
 * (`?name=Ada`). Texts show one with `{{name}}`; conditions and branch assignments use them.
 */
export const VariablesSection = ({ store, variables, errors }: { store: DocumentStore; variables: EditorDocument['variables']; errors: SaveErrors }) => {
  const set = (next: FunnelVariable[]) => store.setMeta({ variables: next });
  const change = (i: number, next: FunnelVariable) => set(variables.map((v, j) => (j === i ? next : v)));
  return (
    <PanelSection title="Variables">
      {variables.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          No variables yet. Variables greet viewers by name ({'{{name}}'} in a text), keep a score and decide which buttons show.
        </Typography>
      )}
      <Stack spacing={1.5}>
        {variables.map((v, i) => (
          <Box
            key={i}
            component="section"
            aria-label={`Variable ${v.name || i + 1}`}
            data-testid="variable"
            sx={{ borderLeft: 3, borderColor: 'divider', pl: 1 }}
          >
            <Row>
              <TextValue label="Name" value={v.name} error={errors[`variables.${i}.name`]?.[0]} onChange={(name) => change(i, { ...v, name })} />
              <SelectValue label="Type" value={v.type} options={TYPE_OPTIONS} onChange={(type) => change(i, withType(v, type))} />
            </Row>
            <Row>
              {v.type === 'text' && (
                <TextValue
                  label="Starts as"
                  value={v.default}
                  error={errors[`variables.${i}.default`]?.[0]}
                  onChange={(d) => change(i, { ...v, default: d })}
                />
              )}
              {v.type === 'number' && (
                <NumberValue
                  label="Starts at"
                  min={-LOGIC_LIMITS.numberMax}
                  max={LOGIC_LIMITS.numberMax}
                  value={v.default}
                  onChange={(d) => change(i, { ...v, default: d })}
                />
              )}
              {v.type === 'yesno' && (
                <SelectValue
                  label="Starts as"
                  value={v.default ? 'yes' : 'no'}
                  options={[
                    { value: 'no', label: 'No' },
                    { value: 'yes', label: 'Yes' },
                  ]}
                  onChange={(d) => change(i, { ...v, default: d === 'yes' })}
                />
              )}
              <Box sx={{ flex: '0 0 auto !important', display: 'flex', alignItems: 'center' }}>
                <IconButton aria-label={`Remove variable ${v.name}`} onClick={() => set(variables.filter((_, j) => j !== i))}>
                  <DeleteIcon />
                </IconButton>
              </Box>
            </Row>
            <ToggleValue label={`The link may set it (?${v.name || 'name'}=…)`} checked={v.fromUrl} onChange={(fromUrl) => change(i, { ...v, fromUrl })} />
          </Box>
        ))}
      </Stack>
      <Button
        size="small"
        startIcon={<AddIcon />}
        disabled={variables.length >= LOGIC_LIMITS.maxVariables}
        onClick={() => set([...variables, { name: freshName(variables), type: 'text', default: '', fromUrl: false }])}
        sx={{ mt: 1 }}
      >
        Add variable
      </Button>
      {errors.variables?.[0] && (
        <Typography variant="body2" color="error">
          {errors.variables[0]}
        </Typography>
      )}
    </PanelSection>
  );
};
