import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { LOGIC_LIMITS, compileAssignment, compileCondition, describeLogicError, type FunnelVariable, type LogicError } from '@branchify/shared';

/** The text with the place of the mistake marked, so the creator sees where it goes wrong. */
const Pointer = ({ src, error }: { src: string; error: LogicError }) => (
  <Box component="span" sx={{ display: 'block', fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-all', mt: 0.5 }} aria-hidden>
    {src.slice(0, error.at)}
    <Box component="mark" sx={{ bgcolor: '#fdecea', color: '#8a1c1c', borderBottom: '2px solid #d32f2f', px: '1px' }}>
      {src.slice(error.at, error.at + 1) || ' '}
    </Box>
    {src.slice(error.at + 1)}
  </Box>
);

/**
 * A condition (`score >= 2 and liked`), checked as it is typed against the funnel's variables:
 * a mistake is described (where, and what was expected) and marked in the text. Empty: always.
 */
export const ConditionValue = ({
  label,
  value,
  variables,
  saveError,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  variables: readonly FunnelVariable[];
  saveError?: string;
  onChange: (value: string) => void;
  testId?: string;
}) => {
  const compiled = value.trim() === '' ? null : compileCondition(value, variables);
  const error = compiled && !compiled.ok ? compiled.error : null;
  return (
    <TextField
      size="small"
      margin="dense"
      fullWidth
      label={label}
      value={value}
      placeholder="Always (e.g. score >= 2)"
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(error ?? saveError)}
      helperText={
        error ? (
          <>
            {`Condition ${describeLogicError(error)}`}
            <Pointer src={value} error={error} />
          </>
        ) : (
          (saveError ?? (variables.length ? `Variables: ${variables.map((v) => v.name).join(', ')}` : 'Declare variables in the funnel details first.'))
        )
      }
      slotProps={{ htmlInput: { 'aria-invalid': Boolean(error ?? saveError), maxLength: LOGIC_LIMITS.conditionMax, spellCheck: false, 'data-testid': testId } }}
    />
  );
};

/** A branch's assignments, one a line (`score + 1`, `name = "Ada"`, `liked = yes`), each checked as typed. */
export const AssignmentsValue = ({
  value,
  variables,
  saveError,
  onChange,
}: {
  value: readonly string[];
  variables: readonly FunnelVariable[];
  saveError?: string;
  onChange: (value: string[]) => void;
}) => {
  // The lines as typed (an empty line while typing is kept here, left out of the document).
  const [text, setText] = useState(value.join('\n'));
  useEffect(() => {
    if (
      text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .join('\n') !== value.join('\n')
    )
      setText(value.join('\n'));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follows the document (undo, another branch), not each keystroke
  }, [value]);
  const lines = text.split('\n');
  const problem = lines
    .map((line, i) => ({ line, i, compiled: line.trim() === '' ? null : compileAssignment(line, variables) }))
    .find((l) => l.compiled && !l.compiled.ok);
  const error = problem?.compiled && !problem.compiled.ok ? problem.compiled.error : null;
  return (
    <TextField
      size="small"
      margin="dense"
      fullWidth
      multiline
      minRows={2}
      label="When clicked, set"
      value={text}
      placeholder={'score + 1\nname = "Ada"'}
      onChange={(e) => {
        setText(e.target.value);
        onChange(e.target.value.split('\n').filter((l) => l.trim() !== ''));
      }}
      error={Boolean(error ?? saveError)}
      helperText={
        error && problem ? (
          <>
            {`Line ${problem.i + 1}, ${describeLogicError(error)}`}
            <Pointer src={problem.line} error={error} />
          </>
        ) : (
          (saveError ?? `One a line, at most ${LOGIC_LIMITS.maxAssignments}: score + 1, score - 1, name = "Ada", liked = yes`)
        )
      }
      slotProps={{ htmlInput: { 'aria-invalid': Boolean(error ?? saveError), spellCheck: false } }}
    />
  );
};
