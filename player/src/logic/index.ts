import {
  applyAssignment,
  evaluateCondition,
  interpolate,
  parseAssignment,
  parseCondition,
  valuesFrom,
  type Assignment,
  type Condition,
  type FunnelVariable,
  type VariableValues,
} from '@branchify/shared';
import type { FunnelLogic } from '../runtime/logic-hooks';

/**
 * The funnel's variables and conditions in the player (loaded only for a funnel that uses them).
 * Conditions and assignments are parsed once into an AST and evaluated by walking it; a text
 * that does not parse (a payload the save did not check) never holds and assigns nothing.
 */
class Logic implements FunnelLogic {
  private current: VariableValues;
  private readonly conditions = new Map<string, Condition | null>();
  private readonly assignments = new Map<string, Assignment | null>();
  private readonly listeners = new Set<() => void>();
  version = 0;

  constructor(private readonly variables: readonly FunnelVariable[]) {
    this.current = valuesFrom(variables, null);
  }

  values = (): VariableValues => this.current;

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  holds(condition: string | undefined): boolean {
    if (!condition || condition.trim() === '') return true;
    let ast = this.conditions.get(condition);
    if (ast === undefined) {
      const parsed = parseCondition(condition);
      ast = parsed.ok ? parsed.value : null;
      this.conditions.set(condition, ast);
    }
    return ast !== null && evaluateCondition(ast, this.current);
  }

  apply(assignments: readonly string[] | undefined): void {
    if (!assignments?.length) return;
    let next = this.current;
    for (const src of assignments) {
      let ast = this.assignments.get(src);
      if (ast === undefined) {
        const parsed = parseAssignment(src);
        ast = parsed.ok ? parsed.value : null;
        this.assignments.set(src, ast);
      }
      if (ast) next = applyAssignment(ast, this.variables, next);
    }
    this.replace(next);
  }

  set(values: unknown): void {
    this.replace(valuesFrom(this.variables, values, this.current));
  }

  text(value: string): string {
    return interpolate(value, this.current);
  }

  private replace(next: VariableValues): void {
    if (Object.keys(next).every((k) => next[k] === this.current[k])) return;
    this.current = next;
    this.version += 1;
    for (const listener of [...this.listeners]) listener();
  }
}

/** The variables the creator lets the link set (`?name=Ada`), from the page's query string. */
const fromQuery = (variables: readonly FunnelVariable[], search: string): Record<string, string> => {
  const params = new URLSearchParams(search);
  const out: Record<string, string> = {};
  for (const v of variables) {
    const value = v.fromUrl ? params.get(v.name) : null;
    if (value !== null) out[v.name] = value;
  }
  return out;
};

/** The funnel's logic: defaults, then the values the link may set; the embedding page may set more later (page/embed.ts). */
export const startLogic = (variables: readonly FunnelVariable[], search: string): FunnelLogic => {
  const logic = new Logic(variables);
  logic.set(fromQuery(variables, search));
  return logic;
};

/** The logic without the page's link or messages (the editor's preview). */
export const createLogic = (variables: readonly FunnelVariable[]): FunnelLogic => new Logic(variables);
