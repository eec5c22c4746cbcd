// A small JSON Schema validator for the inline check: enough of the vocabulary that vendors'
// structured-output modes accept (type, properties, required, items, enum, const,
// additionalProperties: false, anyOf/oneOf, min/max items and length) to tell whether a response
// honours a requested json_schema. Not a general validator: unknown keywords are ignored, $ref is
// not followed. Bounded in depth and error count so a hostile schema or document cannot make the
// check expensive.

export interface SchemaError {
  /** JSONPath-like location, "$" for the root. */
  path: string;
  message: string;
}

const MAX_DEPTH = 32;
const MAX_ERRORS = 10;

type Schema = Record<string, unknown>;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  if (type === 'number') return actual === 'number' || actual === 'integer';
  return actual === type;
}

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function walk(schema: unknown, value: unknown, path: string, depth: number, errors: SchemaError[]): void {
  if (errors.length >= MAX_ERRORS || !isSchema(schema)) return;
  if (depth > MAX_DEPTH) {
    errors.push({ path, message: 'nested too deeply to check' });
    return;
  }
  const push = (message: string) => {
    if (errors.length < MAX_ERRORS) errors.push({ path, message });
  };

  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) {
      const passing = branches.filter((b) => validateJsonSchema(b, value, depth + 1).length === 0).length;
      if (key === 'anyOf' ? passing === 0 : passing !== 1) push(`does not match ${key}`);
    }
  }

  const type = schema.type;
  if (typeof type === 'string' || Array.isArray(type)) {
    const types = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
    if (types.length > 0 && !types.some((t) => matchesType(value, t))) {
      push(`expected ${types.join(' or ')}, got ${typeOf(value)}`);
      return;
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(e, value))) push('is not one of the allowed values');
  if ('const' in schema && !deepEqual(schema.const, value)) push('does not equal the required constant');

  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) push(`is shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) push(`is longer than ${schema.maxLength}`);
  }

  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) push(`has fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) push(`has more than ${schema.maxItems} items`);
    if (isSchema(schema.items)) {
      for (let i = 0; i < value.length && errors.length < MAX_ERRORS; i++) walk(schema.items, value[i], `${path}[${i}]`, depth + 1, errors);
    }
  } else if (isSchema(value)) {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required)) {
      for (const name of schema.required) {
        if (typeof name === 'string' && !Object.prototype.hasOwnProperty.call(value, name)) push(`is missing required property "${name}"`);
      }
    }
    for (const [name, sub] of Object.entries(properties)) {
      if (Object.prototype.hasOwnProperty.call(value, name)) walk(sub, value[name], `${path}.${name}`, depth + 1, errors);
    }
    if (schema.additionalProperties === false) {
      for (const name of Object.keys(value)) if (!(name in properties)) push(`has unexpected property "${name}"`);
    } else if (isSchema(schema.additionalProperties)) {
      for (const name of Object.keys(value)) {
        if (!(name in properties)) walk(schema.additionalProperties, value[name], `${path}.${name}`, depth + 1, errors);
      }
    }
  }
}

/** Errors of `value` against `schema`; empty when it conforms. At most 10 errors are reported. */
export function validateJsonSchema(schema: unknown, value: unknown, depth = 0): SchemaError[] {
  const errors: SchemaError[] = [];
  walk(schema, value, '$', depth, errors);
  return errors;
}
