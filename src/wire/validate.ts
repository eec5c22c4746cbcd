// Field-by-field validation of untrusted request bodies. Parsers call these readers, which throw
// a WireInputError naming the exact field; `guard` turns that into a Result at the module edge,
// so callers of the wire formats never see an exception for a bad body (CONVENTIONS 4).
import { fail, ok, type Result } from '../core/canonical/types.ts';

export type Obj = Record<string, unknown>;

export class WireInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Run a parser; a WireInputError becomes `{ok:false, code:'invalid_request', field}`. */
export function guard<T>(fn: () => T): Result<T> {
  try {
    return ok(fn());
  } catch (e) {
    if (e instanceof WireInputError) return fail('invalid_request', e.message, e.field);
    throw e;
  }
}

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export function bad(field: string, expected: string, got?: unknown): never {
  const suffix = arguments.length > 2 ? `, got ${typeName(got)}` : '';
  throw new WireInputError(field, `Invalid '${field}': expected ${expected}${suffix}.`);
}

export function unsupported(field: string, what: string): never {
  throw new WireInputError(field, `Unsupported '${field}': ${what} is not supported by this gateway.`);
}

export function required(field: string): never {
  throw new WireInputError(field, `Missing required field '${field}'.`);
}

export function obj(v: unknown, field: string): Obj {
  if (!isObj(v)) bad(field, 'an object', v);
  return v;
}
export const optObj = (v: unknown, field: string): Obj | undefined =>
  v === undefined || v === null ? undefined : obj(v, field);

export function str(v: unknown, field: string): string {
  if (typeof v !== 'string') {
    if (v === undefined) required(field);
    bad(field, 'a string', v);
  }
  return v;
}
export const optStr = (v: unknown, field: string): string | undefined =>
  v === undefined || v === null ? undefined : str(v, field);

export function bool(v: unknown, field: string): boolean {
  if (typeof v !== 'boolean') bad(field, 'a boolean', v);
  return v;
}
export const optBool = (v: unknown, field: string): boolean | undefined =>
  v === undefined || v === null ? undefined : bool(v, field);

export interface NumRule {
  min?: number;
  max?: number;
  int?: boolean;
}
export function num(v: unknown, field: string, rule: NumRule = {}): number {
  if (v === undefined) required(field);
  if (typeof v !== 'number' || !Number.isFinite(v)) bad(field, 'a number', v);
  // Counts must be safe integers: beyond 2^53 a number is no longer exact, and the reservation
  // maths refuses it (issue 22 item 4: max_tokens 1e30 answered 500).
  if (rule.int && !Number.isSafeInteger(v)) bad(field, `an integer no larger than ${Number.MAX_SAFE_INTEGER}`, v);
  if (rule.min !== undefined && v < rule.min) bad(field, `a number >= ${rule.min} (got ${v})`);
  if (rule.max !== undefined && v > rule.max) bad(field, `a number <= ${rule.max} (got ${v})`);
  return v;
}
export const optNum = (v: unknown, field: string, rule?: NumRule): number | undefined =>
  v === undefined || v === null ? undefined : num(v, field, rule);

export function arr(v: unknown, field: string): unknown[] {
  if (!Array.isArray(v)) {
    if (v === undefined) required(field);
    bad(field, 'an array', v);
  }
  return v;
}
export const optArr = (v: unknown, field: string): unknown[] | undefined =>
  v === undefined || v === null ? undefined : arr(v, field);

export function oneOf<T extends string>(v: unknown, field: string, values: readonly T[]): T {
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    throw new WireInputError(
      field,
      `Invalid '${field}': expected one of ${values.map((x) => `'${x}'`).join(', ')}${
        typeof v === 'string' ? `, got '${v}'` : v === undefined ? '' : `, got ${typeName(v)}`
      }.`,
    );
  }
  return v as T;
}

/** A string or an array of strings, as `stop` fields take. */
export function strList(v: unknown, field: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return [v];
  return arr(v, field).map((s, i) => str(s, `${field}[${i}]`));
}
