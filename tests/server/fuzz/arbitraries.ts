import fc from 'fast-check';
import * as z from 'zod';
import {
  anyJsonArb,
  anyStringArb,
  garbageMultipart,
  hostileHosts,
  hostileStringArb,
  malformedQueryParts,
} from './hostile.ts';
import type { FuzzRoute } from './routes.ts';

/** The subset of JSON Schema that `z.toJSONSchema` writes for our request schemas. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
}

export const toJsonSchema = (schema: unknown): JsonSchema =>
  z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** Real values by field name (an interaction uid, an application guid, a sort column...) so inputs get past the first check. */
export type KnownValues = Readonly<Record<string, readonly string[]>>;

/** Values the schema accepts. */
export function validArb(schema: JsonSchema, known: KnownValues, name = ''): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((member) => validArb(member, known, name)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      const base =
        schema.format === 'uuid'
          ? fc.uuid()
          : schema.format === 'email'
            ? fc.emailAddress()
            : fc.string({
                minLength: schema.minLength ?? 0,
                maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 30, 30)),
              });
      const real = known[name];
      return real?.length
        ? fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: base })
        : base;
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validArb(schema.items ?? {}, known, name), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, 4)),
      });
    case 'object':
      return fc.record(
        Object.fromEntries(
          Object.entries(schema.properties ?? {}).map(([key, property]) => [
            key,
            validArb(property, known, key),
          ]),
        ),
        { requiredKeys: schema.required ?? [] },
      );
    default:
      return anyJsonArb;
  }
}

/**
 * A hostile value for a field: a hostile string spliced into one of its real values (inside the JSON
 * when the value is JSON, so it survives JSON.parse and reaches the query), or anything at all.
 */
function badValueArb(real: readonly string[]): fc.Arbitrary<unknown> {
  const anything = fc.oneof({ weight: 3, arbitrary: anyStringArb }, { weight: 1, arbitrary: anyJsonArb });
  if (real.length === 0) return anything;
  const spliced = fc.tuple(fc.constantFrom(...real), hostileStringArb).map(([value, hostile]) => {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) return JSON.stringify([...parsed, hostile]);
    } catch {
      // not JSON: splice into the text
    }
    return `${value}${hostile}`;
  });
  return fc.oneof({ weight: 1, arbitrary: spliced }, { weight: 1, arbitrary: anything });
}

/**
 * Values around the schema: valid ones, and at every level the wrong type, hostile strings,
 * missing and unknown keys, arrays past their bounds.
 */
export function fuzzArb(schema: JsonSchema, known: KnownValues, name = ''): fc.Arbitrary<unknown> {
  const valid = validArb(schema, known, name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' && schema.properties) {
    const fields = Object.fromEntries(
      Object.entries(schema.properties).map(([key, property]) => [key, fuzzArb(property, known, key)]),
    );
    // One field hostile, the rest valid: the input that gets past every other check to the database.
    const oneBad = fc
      .constantFrom(...Object.keys(schema.properties))
      .chain((key) => fc.tuple(valid, fc.constant(key), badValueArb(known[key] ?? [])))
      .map(([object, key, value]) => ({ ...(object as object), [key]: value }));
    return fc.oneof(
      { weight: 5, arbitrary: oneBad },
      { weight: 3, arbitrary: fc.record(fields, { requiredKeys: schema.required ?? [] }) },
      { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) }, // required keys missing
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.record(fields), fc.oneof(hostileStringArb, fc.string()), anyJsonArb)
          .map(([object, key, value]) => ({ ...object, [key]: value })),
      },
      { weight: 1, arbitrary: valid },
      { weight: 1, arbitrary: anyJsonArb },
    );
  }
  if (type === 'array') {
    const item = fuzzArb(schema.items ?? {}, known, name);
    // Past the bound when there is one; otherwise long enough to cost something, short enough to run 200 times.
    const past = schema.maxItems !== undefined ? schema.maxItems + 1 : 100;
    return fc.oneof(
      { weight: 3, arbitrary: fc.array(item, { maxLength: 4 }) },
      { weight: 1, arbitrary: item.map((one) => Array.from({ length: past }, () => one)) },
      { weight: 1, arbitrary: valid },
      { weight: 1, arbitrary: anyJsonArb },
    );
  }
  if (type === 'string')
    return fc.oneof(
      { weight: 2, arbitrary: valid },
      { weight: 2, arbitrary: anyStringArb },
      { weight: 1, arbitrary: anyJsonArb },
    );
  return fc.oneof({ weight: 2, arbitrary: valid }, { weight: 1, arbitrary: anyJsonArb });
}

/** One request as light-my-request takes it; `auth` is filled in by the runner (no token, or the admin's). */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Header values as an HTTP parser lets them through: no control characters, latin-1 only. */
const headerSafe = (value: string) => value.replace(/[^\x20-\x7e]/g, '?');

const hostArb = fc.oneof(
  { weight: 16, arbitrary: fc.constant('localhost') },
  { weight: 1, arbitrary: fc.constant('acme.localhost') },
  { weight: 3, arbitrary: fc.constantFrom(...hostileHosts) },
);

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) becomes the bytes a sloppy
 * client would send for it (its WTF-8 form, `%ED%A0%80`): the server must cope with those too.
 */
export function encodeLoosely(text: string): string {
  return text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]|[^\uD800-\uDFFF]+/g, (part) => {
    if (!/^[\uD800-\uDFFF]$/.test(part)) return encodeURIComponent(part);
    const code = part.charCodeAt(0);
    return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
      .map((byte) => `%${byte.toString(16).toUpperCase()}`)
      .join('');
  });
}

/** Query values: scalars as they are, arrays as repeated keys, anything else as its JSON. */
function encodeQuery(value: unknown): fc.Arbitrary<string> {
  const parts: string[] = [];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, field] of Object.entries(value)) {
      const values = Array.isArray(field) ? field : [field];
      for (const one of values)
        parts.push(
          `${encodeLoosely(key)}=${encodeLoosely(typeof one === 'string' ? one : (JSON.stringify(one) ?? ''))}`,
        );
    }
  } else {
    parts.push(encodeLoosely(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')));
  }
  const query = parts.join('&');
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(query) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...malformedQueryParts).map((bad) => (query ? `${query}&${bad}` : bad)),
    },
  );
}

/** A form-urlencoded body from a value: the fields of an object, each a string. */
function formOf(value: unknown): string {
  const form = new URLSearchParams();
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, field] of Object.entries(value))
      form.append(key, typeof field === 'string' ? field : (JSON.stringify(field) ?? ''));
  } else form.append(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''), '');
  return form.toString();
}

/** A body and its content type: mostly what the route expects, often not. */
function bodyArb(
  value: unknown,
  prefersForm: boolean,
): fc.Arbitrary<{ contentType?: string; payload?: string }> {
  const json = JSON.stringify(value) ?? 'null';
  const expected = prefersForm
    ? { contentType: 'application/x-www-form-urlencoded', payload: formOf(value) }
    : { contentType: 'application/json', payload: json };
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(expected) },
    {
      weight: 4,
      arbitrary: fc.constantFrom<{ contentType?: string; payload?: string }>(
        { contentType: 'application/json', payload: json },
        { contentType: 'text/plain', payload: json },
        { contentType: 'application/x-www-form-urlencoded', payload: formOf(value) },
        garbageMultipart,
        { contentType: 'application/json', payload: '' },
        { contentType: 'application/json', payload: json.slice(0, Math.max(1, json.length - 1)) }, // truncated JSON
        { contentType: 'application/json; charset=utf-16', payload: json },
        { contentType: 'application/x-sentry-envelope', payload: json },
        { contentType: 'application/octet-stream', payload: '\u0000\u00ff\u00fe' },
        { contentType: 'x/../../garbage', payload: json },
        { payload: json }, // no content type
        {}, // no body at all
      ),
    },
  );
}

const withBody = (method: string) => !['GET', 'HEAD'].includes(method);

/** Every request one route can be sent: path params, query, body, host and a few proxy headers fuzzed. */
export function requestArb(route: FuzzRoute, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
  const paramSchema = route.params ? toJsonSchema(route.params) : undefined;
  const paramArbs = paramNames.map((name) => {
    const real = known[name] ?? [];
    const choices: fc.WeightedArbitrary<string>[] = [
      {
        weight: 1,
        arbitrary: validArb(paramSchema?.properties?.[name] ?? { type: 'string' }, known, name).map(String),
      },
      { weight: 2, arbitrary: anyStringArb },
    ];
    if (real.length) choices.push({ weight: 3, arbitrary: fc.constantFrom(...real) });
    return fc.oneof(...choices).map(encodeLoosely);
  });
  const queryValue = route.querystring
    ? fc.oneof(
        { weight: 1, arbitrary: validArb(toJsonSchema(route.querystring), known) },
        { weight: 2, arbitrary: fuzzArb(toJsonSchema(route.querystring), known) },
      )
    : fc.oneof(
        { weight: 2, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.dictionary(anyStringArb, anyStringArb, { maxKeys: 2 }) },
      );
  const bodyValue = route.body
    ? fc.oneof(
        { weight: 1, arbitrary: validArb(toJsonSchema(route.body), known) },
        { weight: 2, arbitrary: fuzzArb(toJsonSchema(route.body), known) },
      )
    : fc.oneof({ weight: 1, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: anyJsonArb });
  // Proxy headers change the origin (trustProxy), so a token no longer fits: sent on one request in five.
  const extraHeaders = fc.oneof(
    { weight: 4, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.record(
        {
          'x-forwarded-proto': fc.constantFrom('https', 'javascript', 'http, https', ''),
          'x-forwarded-host': fc.constantFrom(...hostileHosts),
          cookie: anyStringArb,
          'accept-language': anyStringArb,
        },
        { requiredKeys: [] },
      ),
    },
  );

  return fc
    .tuple(
      fc.tuple(...paramArbs),
      queryValue.chain(encodeQuery),
      bodyValue,
      hostArb,
      extraHeaders,
      fc.boolean(),
    )
    .chain(([params, query, body, host, extra, realCookie]) =>
      (withBody(route.method)
        ? bodyArb(body, route.prefersForm ?? false)
        : fc.constant({ contentType: undefined, payload: undefined })
      ).map(({ contentType, payload }): FuzzRequest => {
        let index = 0;
        const path = route.url.replace(/:(\w+)/g, () => params[index++] ?? '');
        const headers: Record<string, string> = { host, ...extra };
        if (realCookie && known.cookie?.[0]) headers.cookie = known.cookie[0];
        if (contentType) headers['content-type'] = contentType;
        for (const key of Object.keys(headers)) headers[key] = headerSafe(headers[key] ?? '');
        return {
          method: route.method,
          url: query ? `${path}?${query}` : path,
          headers,
          ...(payload !== undefined ? { payload } : {}),
        };
      }),
    );
}

/** The same request with a bearer token of the wrong kind: garbage, empty, truncated. */
export const badAuthorizationArb = fc.oneof(
  fc.constant(undefined),
  fc.constant(undefined),
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'Basic YWRtaW46YWRtaW4=',
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.',
  ),
  hostileStringArb.map((value) => headerSafe(`Bearer ${value}`)),
);
