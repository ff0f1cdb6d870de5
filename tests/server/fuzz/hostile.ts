import fc from 'fast-check';

/**
 * Inputs that have broken servers before, mixed into every generated value: control bytes,
 * sizes, unicode edge cases, SQL and HTML meta characters, numbers no column holds.
 * None of them spells a whole SQL statement, so a response that does is a leak, not an echo.
 */
export const hostileStrings: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\u0000'.repeat(64),
  'x'.repeat(100_000),
  '€'.repeat(20_000),
  '\u202Eevil\u202C', // right-to-left override
  'مرحبا بالعالم',
  '👩‍👩‍👧‍👦🔥',
  '\uD800', // lone high surrogate
  'a\uDFFFb', // lone low surrogate
  '＝＇＜ｓｃｒｉｐｔ＞', // full-width
  '\uFEFF\u200B\u00A0',
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  ';',
  '\\',
  "\\'",
  '%',
  '_',
  '$1',
  '"',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '{{7*7}}',
  '../../etc/passwd',
  '\r\nX-Injected: 1',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '["\u0000"]', // invalid JSON: a raw control character
  String.raw`["\u0000"]`, // valid JSON holding a NUL: passes JSON.parse, then reaches the database
  String.raw`{"a":"\u0000"}`,
  '['.repeat(5_000),
  '-1',
  '0',
  '1e309',
  '-9223372036854775809',
  '99999999999999999999999',
  'NaN',
  '0x10',
];

/** JSON values of the wrong shape: wrong types, out-of-range numbers, deep nesting. */
export const hostileJsonValues: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_VALUE,
  1e308,
  [],
  {},
  [null],
  JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
  deepNest(2_000),
  deepNest(20),
];

function deepNest(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/**
 * Host headers: the tenants, unknown ones, bad ports, very long names. Only characters a header
 * may carry (no CR, LF, NUL), so the request reaches the server instead of failing in the client.
 */
export const hostileHosts: readonly string[] = [
  'localhost:99999',
  'localhost:-1',
  'localhost:abc',
  'localhost:',
  'nowhere.localhost',
  'LOCALHOST',
  'acme.localhost:8080',
  `${'a'.repeat(70_000)}.localhost`,
  `${'sub.'.repeat(2_000)}localhost`,
  '[::1]:80',
  '[::1',
  '127.0.0.1',
  'localhost.',
  ':80',
  '',
  'local host',
  "localhost' OR 1=1 --",
];

export const hostileStringArb = fc.constantFrom(...hostileStrings);
export const hostileJsonArb = fc.constantFrom(...hostileJsonValues);

/** Any string, weighted towards the hostile corpus and odd unicode; some are JSON text holding hostile strings (for parameters that carry JSON). */
export const anyStringArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: hostileStringArb },
  {
    weight: 2,
    arbitrary: fc
      .array(hostileStringArb, { minLength: 1, maxLength: 3 })
      .map((values) => JSON.stringify(values)),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

/** Any JSON-ish value: hostile ones, or whatever fast-check makes up. */
export const anyJsonArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: hostileJsonArb },
  { weight: 2, arbitrary: anyStringArb },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Percent-encodings a browser would never send. */
export const malformedQueryParts: readonly string[] = [
  '%',
  '%E0%A4%A',
  '%C0%AF',
  '%FF%FE',
  '%00',
  '%uD800',
  '%%%',
  'a=%',
];

/**
 * Request bodies whose bytes are not what the content type says, or no bytes at all.
 * `multipart/form-data` with garbage parts: the server has no multipart parser yet, so this also
 * checks an unsupported type is a 415 and not a crash.
 */
export const garbageMultipart = {
  contentType: 'multipart/form-data; boundary=----fuzz',
  payload:
    '------fuzz\r\nContent-Disposition: form-data; name="file"; filename="\u0000.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-\u0000\u00ff\r\n------fuzz--garbage',
};
