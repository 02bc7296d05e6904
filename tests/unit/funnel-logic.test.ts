import fc from 'fast-check';
import {
  LOGIC_LIMITS,
  applyAssignment,
  coerceValue,
  compileAssignment,
  compileCondition,
  describeLogicError,
  evaluateCondition,
  funnelDocumentSchema,
  interpolate,
  parseAssignment,
  parseCondition,
  readFunnelExport,
  valuesFrom,
  type FunnelVariable,
  type VariableValues,
} from '@branchify/shared';

const VARIABLES: FunnelVariable[] = [
  { name: 'name', type: 'text', default: '', fromUrl: true },
  { name: 'score', type: 'number', default: 0, fromUrl: false },
  { name: 'liked', type: 'yesno', default: false, fromUrl: false },
];

const holds = (src: string, values: VariableValues): boolean => {
  const compiled = compileCondition(src, VARIABLES);
  if (!compiled.ok) throw new Error(describeLogicError(compiled.error));
  return evaluateCondition(compiled.value, values);
};
const errorOf = (src: string) => {
  const compiled = compileCondition(src, VARIABLES);
  return compiled.ok ? null : compiled.error;
};

describe('conditions: parsing and evaluation', () => {
  const values = { name: 'Ada', score: 2, liked: true };

  it.each([
    ['score >= 2', true],
    ['score > 2', false],
    ['score == 2 and liked', true],
    ['name != ""', true],
    ["name == 'Ada'", true],
    ['liked and score > 1', true],
    ['not liked or score < 0', false],
    ['(score < 1 or name == "Ada") and not (score == 3)', true],
    ['liked == yes', true],
    ['liked != true', false],
    ['score <= -1', false],
    ['score == 2.0', true],
    ['score >= 1 && liked', true],
    ['!liked || score == 2', true],
  ])('%s → %s', (src, expected) => {
    expect(holds(src, values)).toBe(expected);
  });

  it('and binds tighter than or', () => {
    expect(holds('liked or score > 5 and name == "x"', { ...values, liked: true })).toBe(true);
    expect(holds('liked or score > 5 and name == "x"', { ...values, liked: false })).toBe(false);
  });

  it('reads a missing value as not holding, never throws', () => {
    const parsed = parseCondition('score >= 2');
    expect(parsed.ok && evaluateCondition(parsed.value, {})).toBe(false);
  });

  it('produces a plain AST', () => {
    expect(parseCondition('score >= 2 and liked')).toEqual({
      ok: true,
      value: {
        kind: 'and',
        items: [
          { kind: 'cmp', op: '>=', left: { kind: 'var', name: 'score', at: 0 }, right: { kind: 'lit', value: 2, at: 9 } },
          { kind: 'test', operand: { kind: 'var', name: 'liked', at: 15 } },
        ],
      },
    });
  });
});

describe('conditions: errors point at the mistake', () => {
  it.each([
    ['score >=', 8, 'expected a value'],
    ['score >= 2 and', 14, 'expected a value'],
    ['score = 2', 6, "use '=='"],
    ['score >= 2)', 10, "no matching '('"],
    ['(score >= 2', 11, "expected ')'"],
    ['score >= 2 liked', 11, "expected 'and', 'or'"],
    ['name == "Ada', 8, 'no closing'],
    ['score # 2', 6, "unexpected character '#'"],
    ['scor >= 2', 0, "'scor' is not a variable"],
    ['score == "two"', 9, 'cannot compare a number with text'],
    ['name > "a"', 0, "'>' compares numbers only"],
    ['score', 0, 'expected a comparison'],
    ['', 0, 'is empty'],
  ])('%s: at %i, %s', (src, at, message) => {
    const error = errorOf(src);
    expect(error).not.toBeNull();
    expect(error!.at).toBe(at);
    expect(error!.message).toContain(message);
  });

  it('describes the position for a person (1-based)', () => {
    expect(describeLogicError({ at: 8, message: 'expected a value' })).toBe('at character 9: expected a value');
  });

  it('refuses text over the limit and nesting over the limit', () => {
    expect(errorOf(`score == ${'1'.repeat(LOGIC_LIMITS.conditionMax)}`)?.message).toContain('at most');
    const deep = `${'('.repeat(LOGIC_LIMITS.maxDepth + 1)}liked${')'.repeat(LOGIC_LIMITS.maxDepth + 1)}`;
    expect(errorOf(deep)?.message).toContain('nested');
    expect(errorOf(`${'not '.repeat(LOGIC_LIMITS.maxDepth + 1)}liked`)?.message).toContain('nested');
  });

  it('never throws, whatever the text (hostile inputs)', () => {
    const alphabet = fc.constantFrom(...'()!=<>&|"\'\\ andortyesscorelikedname0123456789.-+#{}$;'.split(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: alphabet, maxLength: 400 })), (src) => {
        const compiled = compileCondition(src, VARIABLES);
        if (compiled.ok) expect(typeof evaluateCondition(compiled.value, { name: 'x', score: 1, liked: true })).toBe('boolean');
        else expect(compiled.error.at).toBeGreaterThanOrEqual(0);
        const assignment = parseAssignment(src);
        expect(typeof assignment.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });

  it('code is only ever data: no name reaches the prototype or a function', () => {
    for (const src of ['constructor == 1', '__proto__ == 1', 'toString', 'name == constructor']) {
      const error = errorOf(src);
      expect(error?.message).toMatch(/is not a variable of this funnel/);
    }
    const parsed = parseCondition('constructor == "x"');
    expect(parsed.ok && evaluateCondition(parsed.value, {})).toBe(false);
  });
});

describe('assignments', () => {
  it.each([
    ['score + 1', { score: 3 }],
    ['score - 2', { score: 0 }],
    ['score = 10', { score: 10 }],
    ['name = "Grace"', { name: 'Grace' }],
    ['liked = no', { liked: false }],
  ])('%s', (src, change) => {
    const compiled = compileAssignment(src, VARIABLES);
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(applyAssignment(compiled.value, VARIABLES, { name: 'Ada', score: 2, liked: true })).toEqual({ name: 'Ada', score: 2, liked: true, ...change });
  });

  it.each([
    ['name + 1', 'only numbers add'],
    ['score = "x"', 'takes a number'],
    ['liked = 3', 'takes yes/no'],
    ['nobody = 1', 'is not a variable'],
    ['score +', 'expected a number'],
    ['+ 1', 'expected the name of a variable'],
    ['score + 1 2', 'expected the end'],
    ['score + "x"', "'+' takes a number"],
  ])('%s is refused: %s', (src, message) => {
    const compiled = compileAssignment(src, VARIABLES);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.error.message).toContain(message);
  });

  it('keeps numbers within their bounds', () => {
    const compiled = compileAssignment('score + 1000000000', VARIABLES);
    if (!compiled.ok) throw new Error('parse');
    expect(applyAssignment(compiled.value, VARIABLES, { score: LOGIC_LIMITS.numberMax })).toEqual({ score: LOGIC_LIMITS.numberMax });
  });
});

describe('values from outside', () => {
  it('types and bounds each declared variable, ignoring the rest', () => {
    const values = valuesFrom(VARIABLES, { name: 'Ada', score: '3', liked: 'yes', other: 'x', __proto__: { polluted: true } });
    expect(values).toEqual({ name: 'Ada', score: 3, liked: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(valuesFrom(VARIABLES, { name: 'x'.repeat(LOGIC_LIMITS.textMax + 1), score: 'Infinity', liked: 'maybe' })).toEqual({
      name: '',
      score: 0,
      liked: false,
    });
    expect(valuesFrom(VARIABLES, 'not an object')).toEqual({ name: '', score: 0, liked: false });
    expect(coerceValue('number', 1e12)).toBeUndefined();
    expect(coerceValue('number', ' -2.5 ')).toBe(-2.5);
    expect(coerceValue('yesno', true)).toBe(true);
    expect(coerceValue('text', 5)).toBeUndefined();
  });
});

describe('interpolation', () => {
  it('fills {{name}} with the value as text and leaves unknown names as written', () => {
    expect(interpolate('Hi {{ name }}, score {{score}}, liked {{liked}}, {{who}}', { name: 'Ada', score: 2, liked: true })).toBe(
      'Hi Ada, score 2, liked yes, {{who}}',
    );
    const hostile = '<img src=x onerror=alert(1)>';
    expect(interpolate('Hello {{name}}', { name: hostile })).toBe(`Hello ${hostile}`);
    expect(interpolate('{{constructor}}', { name: 'x' })).toBe('{{constructor}}');
  });
});

describe('the funnel document with variables and conditions', () => {
  const doc = (extra: Record<string, unknown>, branch: Record<string, unknown> = {}) => ({
    title: 'T',
    variables: VARIABLES,
    videos: [
      {
        id: 1,
        editor_id: 'a',
        elements: [{ id: 'e', type: 'branch', hideAt: 5, data: { branches: [{ id: 'b', onclick: 'timestamp', ...branch }] }, ...extra }],
      },
    ],
  });
  const problems = (input: unknown) => {
    const parsed = funnelDocumentSchema.safeParse(input);
    return parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  };

  it('takes declared variables, conditions and assignments', () => {
    expect(problems(doc({ when: 'name != ""' }, { when: 'score >= 2', set: ['score + 1', 'liked = yes'] }))).toEqual([]);
    expect(funnelDocumentSchema.parse({ title: 'T' }).variables).toEqual([]);
  });

  it('names the field and the mistake', () => {
    expect(problems(doc({}, { when: 'score >=' }))).toEqual([
      {
        path: 'videos.0.elements.0.data.branches.0.when',
        message: 'Condition "score >=" at character 9: expected a value (a variable, a number, "text", yes or no), but the condition ends here',
      },
    ]);
    expect(problems(doc({ when: 'points > 1' }))).toEqual([
      { path: 'videos.0.elements.0.when', message: 'Condition "points > 1" at character 1: \'points\' is not a variable of this funnel' },
    ]);
    expect(problems(doc({}, { set: ['name + 1'] }))[0]?.path).toBe('videos.0.elements.0.data.branches.0.set.0');
  });

  it('bounds variable names, types and counts', () => {
    const bad = (variables: unknown) => problems({ title: 'T', variables }).map((p) => p.path);
    expect(bad([{ name: '1st', type: 'text' }])).toEqual(['variables.0.name']);
    expect(bad([{ name: 'and', type: 'text' }])).toEqual(['variables.0.name']);
    expect(bad([{ name: 'x'.repeat(LOGIC_LIMITS.nameMax + 1), type: 'text' }])).toEqual(['variables.0.name']);
    expect(bad([{ name: 'x', type: 'date' }])).toEqual(['variables.0.type']);
    expect(bad([{ name: 'x', type: 'number', default: 'one' }])).toEqual(['variables.0.default']);
    expect(
      bad([
        { name: 'x', type: 'text' },
        { name: 'x', type: 'number' },
      ]),
    ).toEqual(['variables.1.name']);
    expect(bad(Array.from({ length: LOGIC_LIMITS.maxVariables + 1 }, (_, i) => ({ name: `v${i}`, type: 'text' })))).toEqual(['variables']);
  });

  it('imports a version-1 export file (no variables) as a funnel without variables', () => {
    const read = readFunnelExport({
      format: 'branchify.funnel',
      version: 1,
      funnel: { title: 'Old', videos: [{ editor_id: 'a', video: 'video-1', elements: [] }] },
      library: [{ ref: 'video-1', provider: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }],
    });
    expect(read.ok && read.value.document.variables).toEqual([]);
  });
});
