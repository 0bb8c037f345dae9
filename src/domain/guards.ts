/**
 * The guard expression language (docs/guards.md): JSON, evaluated deterministically in the workflow.
 *
 *   literal            "text" | 3 | true | null | [expr, …]   (a JSON array evaluates each element)
 *   {"literal": any}   any JSON value, unevaluated
 *   {"ref": "inputs.x" | "nodes.a.output.x" | "nodes.a.state"}
 *   {"eq"|"ne"|"gt"|"gte"|"lt"|"lte": [expr, expr]}
 *   {"and"|"or": [expr, …]}   {"not": expr}   {"exists": expr}   {"in": [expr, expr]}
 *
 * An empty object `{}` is "no guard": the node always runs.
 */
import { lookupRef, parseRef, type RefScope } from './refs';

export type GuardExpression = unknown;

export const MAX_GUARD_DEPTH = 32;

const COMPARISONS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'] as const;
const OPERATORS = new Set<string>([...COMPARISONS, 'and', 'or', 'not', 'exists', 'in', 'ref', 'literal']);

export interface GuardProblem {
  path: string;
  message: string;
}

/** Checks a guard's shape without evaluating it; returns its problems and the refs it uses. */
export function checkGuard(expr: unknown, path = 'guards'): { problems: GuardProblem[]; refs: string[] } {
  const problems: GuardProblem[] = [];
  const refs: string[] = [];
  const visit = (e: unknown, p: string, depth: number): void => {
    if (depth > MAX_GUARD_DEPTH) {
      problems.push({ path: p, message: `guard nested deeper than ${MAX_GUARD_DEPTH} levels` });
      return;
    }
    if (e === null || ['string', 'number', 'boolean'].includes(typeof e)) return;
    if (Array.isArray(e)) {
      e.forEach((item, i) => visit(item, `${p}[${i}]`, depth + 1));
      return;
    }
    if (typeof e !== 'object') {
      problems.push({ path: p, message: `unsupported value of type ${typeof e}` });
      return;
    }
    const keys = Object.keys(e);
    if (keys.length !== 1) {
      problems.push({ path: p, message: `an operator object needs exactly one key, got ${keys.length} (${keys.join(', ') || 'none'})` });
      return;
    }
    const op = keys[0] as string;
    const arg = (e as Record<string, unknown>)[op];
    const at = `${p}.${op}`;
    if (!OPERATORS.has(op)) {
      problems.push({ path: at, message: `unknown guard operator "${op}"` });
      return;
    }
    switch (op) {
      case 'literal':
        return;
      case 'ref':
        if (typeof arg !== 'string' || !(arg === 'inputs' || arg.startsWith('inputs.') || arg.startsWith('nodes.'))) {
          problems.push({ path: at, message: 'ref must be a string starting with "inputs" or "nodes."' });
        } else refs.push(arg);
        return;
      case 'not':
      case 'exists':
        visit(arg, at, depth + 1);
        return;
      case 'and':
      case 'or':
        if (!Array.isArray(arg) || arg.length === 0) {
          problems.push({ path: at, message: `"${op}" takes a non-empty array of expressions` });
          return;
        }
        arg.forEach((item, i) => visit(item, `${at}[${i}]`, depth + 1));
        return;
      default:
        if (!Array.isArray(arg) || arg.length !== 2) {
          problems.push({ path: at, message: `"${op}" takes an array of exactly two expressions` });
          return;
        }
        arg.forEach((item, i) => visit(item, `${at}[${i}]`, depth + 1));
    }
  };
  visit(expr, path, 0);
  return { problems, refs };
}

/** True when the guard is the empty "always run" object. */
export function isEmptyGuard(expr: unknown): boolean {
  return expr !== null && typeof expr === 'object' && !Array.isArray(expr) && Object.keys(expr).length === 0;
}

function compare(op: (typeof COMPARISONS)[number], a: unknown, b: unknown): boolean {
  if (op === 'eq') return deepEqual(a, b);
  if (op === 'ne') return !deepEqual(a, b);
  const comparable =
    (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
  if (!comparable) return false;
  const [x, y] = [a as number | string, b as number | string];
  if (op === 'gt') return x > y;
  if (op === 'gte') return x >= y;
  if (op === 'lt') return x < y;
  return x <= y;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * Evaluates a (checked) guard expression to a JSON value. Anything nested deeper than
 * MAX_GUARD_DEPTH (which checkGuard refuses) evaluates to undefined instead of recursing on.
 */
export function evaluateExpression(expr: unknown, scope: RefScope, nodeIds: readonly string[], depth = 0): unknown {
  if (expr === null || typeof expr !== 'object') return expr;
  if (depth > MAX_GUARD_DEPTH) return undefined;
  const ev = (e: unknown) => evaluateExpression(e, scope, nodeIds, depth + 1);
  if (Array.isArray(expr)) return expr.map(ev);
  const [op, arg] = Object.entries(expr)[0] ?? [];
  const args = Array.isArray(arg) ? arg : [];
  switch (op) {
    case 'literal':
      return arg;
    case 'ref': {
      const parsed = parseRef(String(arg), nodeIds);
      return parsed ? lookupRef(parsed, scope) : undefined;
    }
    case 'not':
      return !truthy(ev(arg));
    case 'exists': {
      const v = ev(arg);
      return v !== undefined && v !== null;
    }
    case 'and':
      return args.every((e) => truthy(ev(e)));
    case 'or':
      return args.some((e) => truthy(ev(e)));
    case 'in': {
      const [needle, hay] = [ev(args[0]), ev(args[1])];
      if (Array.isArray(hay)) return hay.some((h) => deepEqual(h, needle));
      if (typeof hay === 'string' && typeof needle === 'string') return hay.includes(needle);
      return false;
    }
    case 'eq':
    case 'ne':
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return compare(op, ev(args[0]), ev(args[1]));
    default:
      return undefined;
  }
}

function truthy(v: unknown): boolean {
  return v !== undefined && v !== null && v !== false && v !== 0 && v !== '';
}

/** Whether a node with this guard should run. */
export function guardAllows(expr: unknown, scope: RefScope, nodeIds: readonly string[]): boolean {
  if (isEmptyGuard(expr)) return true;
  return truthy(evaluateExpression(expr, scope, nodeIds));
}
