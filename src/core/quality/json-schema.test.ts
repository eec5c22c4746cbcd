import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { validateJsonSchema } from './json-schema.ts';

const messages = (schema: unknown, value: unknown) => validateJsonSchema(schema, value).map((e) => `${e.path} ${e.message}`);

describe('validateJsonSchema', () => {
  test('types, including integer vs number and unions', () => {
    assert.deepEqual(messages({ type: 'string' }, 'x'), []);
    assert.deepEqual(messages({ type: 'number' }, 3), []);
    assert.deepEqual(messages({ type: 'integer' }, 3), []);
    assert.deepEqual(messages({ type: 'integer' }, 3.5), ['$ expected integer, got number']);
    assert.deepEqual(messages({ type: ['string', 'null'] }, null), []);
    assert.deepEqual(messages({ type: 'object' }, []), ['$ expected object, got array']);
    assert.deepEqual(messages({ type: 'boolean' }, 'true'), ['$ expected boolean, got string']);
  });

  test('required, nested properties, items and additionalProperties', () => {
    const schema = {
      type: 'object',
      required: ['user'],
      properties: {
        user: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer' }, roles: { type: 'array', items: { enum: ['admin', 'member'] } } },
          additionalProperties: false,
        },
      },
    };
    assert.deepEqual(messages(schema, { user: { id: 1, roles: ['admin'] } }), []);
    assert.deepEqual(messages(schema, {}), ['$ is missing required property "user"']);
    assert.deepEqual(messages(schema, { user: { roles: ['owner'], x: 1 } }), [
      '$.user is missing required property "id"',
      '$.user.roles[0] is not one of the allowed values',
      '$.user has unexpected property "x"',
    ]);
  });

  test('additionalProperties as a schema, const, lengths and item counts', () => {
    assert.deepEqual(messages({ type: 'object', additionalProperties: { type: 'number' } }, { a: 1, b: 'x' }), ['$.b expected number, got string']);
    assert.deepEqual(messages({ const: { a: [1] } }, { a: [1] }), []);
    assert.deepEqual(messages({ const: 'v1' }, 'v2'), ['$ does not equal the required constant']);
    assert.deepEqual(messages({ type: 'string', minLength: 2, maxLength: 3 }, 'abcd'), ['$ is longer than 3']);
    assert.deepEqual(messages({ type: 'array', minItems: 1 }, []), ['$ has fewer than 1 items']);
  });

  test('anyOf and oneOf', () => {
    const anyOf = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
    assert.deepEqual(messages(anyOf, 1), []);
    assert.deepEqual(messages(anyOf, true), ['$ does not match anyOf']);
    const oneOf = { oneOf: [{ type: 'number' }, { type: 'integer' }] };
    assert.deepEqual(messages(oneOf, 1), ['$ does not match oneOf']); // matches both
    assert.deepEqual(messages(oneOf, 1.5), []);
  });

  test('unknown keywords and non-object schemas are ignored', () => {
    assert.deepEqual(messages({ format: 'email', $ref: '#/x' }, 'anything'), []);
    assert.deepEqual(messages(true, 1), []);
  });

  test('bounded: at most 10 errors and a depth limit', () => {
    const many = messages({ type: 'array', items: { type: 'string' } }, Array.from({ length: 100 }, (_, i) => i));
    assert.equal(many.length, 10);
    let schema: Record<string, unknown> = { type: 'object' };
    let value: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) {
      schema = { type: 'object', properties: { a: schema } };
      value = { a: value };
    }
    assert.ok(messages(schema, value).some((m) => m.endsWith('nested too deeply to check')));
  });
});
