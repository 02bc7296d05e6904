/**
 * Funnel variables and the small condition language over them. A condition (`score >= 2`,
 * `name != ""`, `liked and score > 1`) is parsed into a plain AST, type-checked against the
 * funnel's variables and evaluated by walking the AST: nothing here ever runs text as code.
 * Every input is bounded (length, nesting, count), so a hostile text costs linear time at most.
 */

export const VARIABLE_TYPES = ['text', 'number', 'yesno'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];
export type VariableValue = string | number | boolean;

export const LOGIC_LIMITS = {
  maxVariables: 30,
  nameMax: 32,
  textMax: 200,
  /** Numbers stay within ± this (and finite). */
  numberMax: 1_000_000_000,
  conditionMax: 300,
  maxAssignments: 5,
  assignmentMax: 120,
  /** Parentheses and `not` nested at most this deep. */
  maxDepth: 12,
} as const;

/** Words of the language: never a variable's name. */
export const RESERVED_WORDS = ['and', 'or', 'not', 'yes', 'no', 'true', 'false'] as const;
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface VariableDeclaration {
  name: string;
  type: VariableType;
  default: VariableValue;
  /** The viewer's link may set it (`?name=Ada`). */
  fromUrl: boolean;
}

export type Operand = { kind: 'var'; name: string; at: number } | { kind: 'lit'; value: VariableValue; at: number };
export const COMPARISONS = ['==', '!=', '<', '<=', '>', '>='] as const;
export type Comparison = (typeof COMPARISONS)[number];
export type Condition =
  | { kind: 'and' | 'or'; items: Condition[] }
  | { kind: 'not'; item: Condition }
  | { kind: 'cmp'; op: Comparison; left: Operand; right: Operand }
  | { kind: 'test'; operand: Operand };
/** `score + 1` (add), `name = "x"` / `liked = yes` (set). */
export interface Assignment {
  name: string;
  op: 'set' | 'add';
  value: VariableValue;
}

/** A mistake in a condition or assignment: where (0-based character offset) and what was expected. */
export interface LogicError {
  at: number;
  message: string;
}
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: LogicError };

/** How an editor or an API error shows a mistake: "at character 8: expected a value". */
export const describeLogicError = (error: LogicError): string => `at character ${error.at + 1}: ${error.message}`;

// --- tokens ------------------------------------------------------------------------------------

type Token =
  | { t: 'ident'; v: string; at: number }
  | { t: 'num'; v: number; at: number }
  | { t: 'str'; v: string; at: number }
  | { t: 'op'; v: string; at: number }
  | { t: 'end'; at: number };

class Fail extends Error {
  constructor(readonly error: LogicError) {
    super(error.message);
  }
}
const fail = (at: number, message: string): never => {
  throw new Fail({ at, message });
};

const OPERATORS = ['==', '!=', '<=', '>=', '<', '>', '=', '(', ')', '+', '-', '&&', '||', '!'];

const tokenize = (src: string): Token[] => {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i += 1;
      continue;
    }
    const at = i;
    if (/[A-Za-z_]/.test(c)) {
      while (i < src.length && /[A-Za-z0-9_]/.test(src[i]!)) i += 1;
      out.push({ t: 'ident', v: src.slice(at, i), at });
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      while (i < src.length && /[0-9]/.test(src[i]!)) i += 1;
      if (src[i] === '.') {
        i += 1;
        while (i < src.length && /[0-9]/.test(src[i]!)) i += 1;
      }
      const v = Number(src.slice(at, i));
      if (!Number.isFinite(v) || Math.abs(v) > LOGIC_LIMITS.numberMax)
        fail(at, `numbers must be between -${LOGIC_LIMITS.numberMax} and ${LOGIC_LIMITS.numberMax}`);
      out.push({ t: 'num', v, at });
      continue;
    }
    if (c === '"' || c === "'") {
      i += 1;
      let v = '';
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\' && i + 1 < src.length) i += 1;
        v += src[i];
        i += 1;
      }
      if (i >= src.length) fail(at, `this text has no closing ${c}`);
      i += 1;
      out.push({ t: 'str', v, at });
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) fail(at, `unexpected character '${c}'`);
    i += op!.length;
    out.push({ t: 'op', v: op!, at });
  }
  out.push({ t: 'end', at: src.length });
  return out;
};

const EXPECTED_VALUE = 'expected a value (a variable, a number, "text", yes or no)';

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.i]!;
  }
  private next(): Token {
    return this.tokens[this.i++]!;
  }
  private isWord(word: string): boolean {
    const t = this.peek();
    return t.t === 'ident' && t.v.toLowerCase() === word;
  }
  private deeper(at: number): void {
    this.depth += 1;
    if (this.depth > LOGIC_LIMITS.maxDepth) fail(at, `nested more than ${LOGIC_LIMITS.maxDepth} levels deep`);
  }

  condition(): Condition {
    const c = this.or();
    const t = this.peek();
    if (t.t !== 'end') {
      if (t.t === 'op' && t.v === ')') fail(t.at, "this ')' has no matching '('");
      fail(t.at, "expected 'and', 'or' or the end of the condition");
    }
    return c;
  }

  private or(): Condition {
    const items = [this.and()];
    while (this.isWord('or') || (this.peek().t === 'op' && (this.peek() as { v: string }).v === '||')) {
      this.next();
      items.push(this.and());
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  }

  private and(): Condition {
    const items = [this.not()];
    while (this.isWord('and') || (this.peek().t === 'op' && (this.peek() as { v: string }).v === '&&')) {
      this.next();
      items.push(this.not());
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  private not(): Condition {
    const t = this.peek();
    if (this.isWord('not') || (t.t === 'op' && t.v === '!')) {
      this.next();
      this.deeper(t.at);
      const item = this.not();
      this.depth -= 1;
      return { kind: 'not', item };
    }
    return this.comparison();
  }

  private comparison(): Condition {
    const t = this.peek();
    if (t.t === 'op' && t.v === '(') {
      this.next();
      this.deeper(t.at);
      const inner = this.or();
      const close = this.next();
      if (close.t !== 'op' || close.v !== ')') fail(close.at, "expected ')'");
      this.depth -= 1;
      return inner;
    }
    const left = this.operand();
    const op = this.peek();
    if (op.t === 'op' && op.v === '=') fail(op.at, "use '==' to compare");
    if (op.t === 'op' && (COMPARISONS as readonly string[]).includes(op.v)) {
      this.next();
      return { kind: 'cmp', op: op.v as Comparison, left, right: this.operand() };
    }
    return { kind: 'test', operand: left };
  }

  operand(): Operand {
    const t = this.next();
    if (t.t === 'num') return { kind: 'lit', value: t.v, at: t.at };
    if (t.t === 'str') {
      if (t.v.length > LOGIC_LIMITS.textMax) fail(t.at, `text must be at most ${LOGIC_LIMITS.textMax} characters`);
      return { kind: 'lit', value: t.v, at: t.at };
    }
    if (t.t === 'op' && t.v === '-') {
      const n = this.next();
      if (n.t !== 'num') fail(n.at, 'expected a number after -');
      return { kind: 'lit', value: -(n as { v: number }).v, at: t.at };
    }
    if (t.t === 'ident') {
      const word = t.v.toLowerCase();
      if (word === 'yes' || word === 'true') return { kind: 'lit', value: true, at: t.at };
      if (word === 'no' || word === 'false') return { kind: 'lit', value: false, at: t.at };
      if ((RESERVED_WORDS as readonly string[]).includes(word)) fail(t.at, EXPECTED_VALUE);
      return { kind: 'var', name: t.v, at: t.at };
    }
    return fail(t.at, t.t === 'end' ? `${EXPECTED_VALUE}, but the condition ends here` : EXPECTED_VALUE);
  }

  assignment(): Assignment {
    const target = this.next();
    if (target.t !== 'ident' || (RESERVED_WORDS as readonly string[]).includes(target.v.toLowerCase())) fail(target.at, 'expected the name of a variable');
    const name = (target as { v: string }).v;
    const op = this.next();
    if (op.t !== 'op' || !['=', '+', '-'].includes(op.v)) fail(op.at, "expected '=', '+' or '-' after the variable");
    const sign = (op as { v: string }).v;
    const valueToken = this.peek();
    if (valueToken.t === 'end') fail(valueToken.at, sign === '=' ? 'expected a number, "text", yes or no' : 'expected a number');
    const value = this.operand();
    if (value.kind !== 'lit') fail(valueToken.at, 'expected a number, "text", yes or no');
    const end = this.peek();
    if (end.t !== 'end') fail(end.at, 'expected the end of the assignment');
    const literal = (value as { value: VariableValue }).value;
    if (sign === '=') return { name, op: 'set', value: literal };
    if (typeof literal !== 'number') fail(valueToken.at, `'${sign}' takes a number`);
    return { name, op: 'add', value: sign === '-' ? -(literal as number) : literal };
  }
}

const attempt = <T>(src: string, max: number, run: (p: Parser) => T): Parsed<T> => {
  if (src.length > max) return { ok: false, error: { at: max, message: `must be at most ${max} characters` } };
  try {
    const tokens = tokenize(src);
    if (tokens.length === 1) return { ok: false, error: { at: 0, message: 'is empty' } };
    return { ok: true, value: run(new Parser(tokens)) };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, error: e.error };
    throw e;
  }
};

/** Parses a condition's text (no variables checked: see checkCondition). */
export const parseCondition = (src: string): Parsed<Condition> => attempt(src, LOGIC_LIMITS.conditionMax, (p) => p.condition());

/** Parses one assignment: `score + 1`, `score - 2`, `name = "Ada"`, `liked = yes`. */
export const parseAssignment = (src: string): Parsed<Assignment> => attempt(src, LOGIC_LIMITS.assignmentMax, (p) => p.assignment());

// --- types -------------------------------------------------------------------------------------

const typeOfValue = (v: VariableValue): VariableType => (typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'yesno' : 'text');
const TYPE_WORDS: Record<VariableType, string> = { text: 'text', number: 'a number', yesno: 'yes/no' };

/** The condition's type errors against the declared variables (unknown names, mixed types). */
export const checkCondition = (condition: Condition, variables: readonly Pick<VariableDeclaration, 'name' | 'type'>[]): LogicError | null => {
  const types = new Map(variables.map((v) => [v.name, v.type]));
  const typeOf = (o: Operand): VariableType => {
    if (o.kind === 'lit') return typeOfValue(o.value);
    const type = types.get(o.name);
    if (!type) throw new Fail({ at: o.at, message: `'${o.name}' is not a variable of this funnel` });
    return type;
  };
  const walk = (c: Condition): void => {
    switch (c.kind) {
      case 'and':
      case 'or':
        c.items.forEach(walk);
        return;
      case 'not':
        walk(c.item);
        return;
      case 'test':
        if (typeOf(c.operand) !== 'yesno') fail(c.operand.at, `expected a comparison such as ${c.operand.kind === 'var' ? c.operand.name : 'value'} == …`);
        return;
      case 'cmp': {
        const left = typeOf(c.left);
        const right = typeOf(c.right);
        if (left !== right) fail(c.right.at, `cannot compare ${TYPE_WORDS[left]} with ${TYPE_WORDS[right]}`);
        if (left !== 'number' && c.op !== '==' && c.op !== '!=') fail(c.left.at, `'${c.op}' compares numbers only`);
      }
    }
  };
  try {
    walk(condition);
    return null;
  } catch (e) {
    if (e instanceof Fail) return e.error;
    throw e;
  }
};

export const checkAssignment = (assignment: Assignment, variables: readonly Pick<VariableDeclaration, 'name' | 'type'>[]): LogicError | null => {
  const declared = variables.find((v) => v.name === assignment.name);
  if (!declared) return { at: 0, message: `'${assignment.name}' is not a variable of this funnel` };
  const type = typeOfValue(assignment.value);
  if (assignment.op === 'add' && declared.type !== 'number')
    return { at: 0, message: `'${assignment.name}' is ${TYPE_WORDS[declared.type]}: only numbers add` };
  if (type !== declared.type) return { at: 0, message: `'${assignment.name}' takes ${TYPE_WORDS[declared.type]}` };
  return null;
};

/** Parse and check in one: the form the editor and the save use. */
export const compileCondition = (src: string, variables: readonly Pick<VariableDeclaration, 'name' | 'type'>[]): Parsed<Condition> => {
  const parsed = parseCondition(src);
  if (!parsed.ok) return parsed;
  const error = checkCondition(parsed.value, variables);
  return error ? { ok: false, error } : parsed;
};
export const compileAssignment = (src: string, variables: readonly Pick<VariableDeclaration, 'name' | 'type'>[]): Parsed<Assignment> => {
  const parsed = parseAssignment(src);
  if (!parsed.ok) return parsed;
  const error = checkAssignment(parsed.value, variables);
  return error ? { ok: false, error } : parsed;
};

// --- values ------------------------------------------------------------------------------------

export type VariableValues = Record<string, VariableValue>;

const clampNumber = (n: number): number => Math.max(-LOGIC_LIMITS.numberMax, Math.min(LOGIC_LIMITS.numberMax, n));

/**
 * A value from outside (the link, the embedding page, a player's report) as the variable's type,
 * or undefined when it is not one: text up to the limit, a finite number in range, yes/no.
 */
export const coerceValue = (type: VariableType, raw: unknown): VariableValue | undefined => {
  switch (type) {
    case 'text':
      return typeof raw === 'string' && raw.length <= LOGIC_LIMITS.textMax ? raw : undefined;
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?(\d+(\.\d+)?|\.\d+)\s*$/.test(raw) ? Number(raw) : NaN;
      return Number.isFinite(n) && Math.abs(n) <= LOGIC_LIMITS.numberMax ? n : undefined;
    }
    case 'yesno':
      if (typeof raw === 'boolean') return raw;
      if (typeof raw !== 'string') return undefined;
      if (['yes', 'true', '1'].includes(raw.toLowerCase())) return true;
      if (['no', 'false', '0'].includes(raw.toLowerCase())) return false;
      return undefined;
  }
};

/** The defaults, overlaid with whatever of `raw` is a declared variable's valid value. */
export const valuesFrom = (variables: readonly VariableDeclaration[], raw: unknown, base?: VariableValues): VariableValues => {
  const out: VariableValues = base ? { ...base } : Object.fromEntries(variables.map((v) => [v.name, v.default]));
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return out;
  for (const v of variables) {
    if (!Object.prototype.hasOwnProperty.call(raw, v.name)) continue;
    const value = coerceValue(v.type, (raw as Record<string, unknown>)[v.name]);
    if (value !== undefined) out[v.name] = value;
  }
  return out;
};

const operandValue = (o: Operand, values: VariableValues): VariableValue | undefined =>
  o.kind === 'lit' ? o.value : Object.prototype.hasOwnProperty.call(values, o.name) ? values[o.name] : undefined;

/** Walks the AST; a name without a value, or mixed types, is false (never an exception). */
export const evaluateCondition = (c: Condition, values: VariableValues): boolean => {
  switch (c.kind) {
    case 'and':
      return c.items.every((i) => evaluateCondition(i, values));
    case 'or':
      return c.items.some((i) => evaluateCondition(i, values));
    case 'not':
      return !evaluateCondition(c.item, values);
    case 'test':
      return operandValue(c.operand, values) === true;
    case 'cmp': {
      const a = operandValue(c.left, values);
      const b = operandValue(c.right, values);
      if (a === undefined || b === undefined || typeof a !== typeof b) return false;
      switch (c.op) {
        case '==':
          return a === b;
        case '!=':
          return a !== b;
        case '<':
          return a < b;
        case '<=':
          return a <= b;
        case '>':
          return a > b;
        case '>=':
          return a >= b;
      }
    }
  }
  return false;
};

/** The values after an assignment (a wrong type leaves them as they were). */
export const applyAssignment = (a: Assignment, variables: readonly VariableDeclaration[], values: VariableValues): VariableValues => {
  const declared = variables.find((v) => v.name === a.name);
  if (!declared) return values;
  const current = values[a.name];
  if (a.op === 'add') {
    if (declared.type !== 'number' || typeof a.value !== 'number') return values;
    return { ...values, [a.name]: clampNumber((typeof current === 'number' ? current : 0) + a.value) };
  }
  return typeOfValue(a.value) === declared.type ? { ...values, [a.name]: a.value } : values;
};

/** A value as a viewer reads it. */
export const displayValue = (v: VariableValue | undefined): string => (v === undefined ? '' : v === true ? 'yes' : v === false ? 'no' : String(v));

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** `{{name}}` replaced by the value as plain text (the caller renders text, never HTML); unknown names stay as written. */
export const interpolate = (text: string, values: VariableValues): string =>
  text.includes('{{')
    ? text.replace(PLACEHOLDER, (whole, name: string) => (Object.prototype.hasOwnProperty.call(values, name) ? displayValue(values[name]) : whole))
    : text;
