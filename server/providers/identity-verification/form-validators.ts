import { createHash } from 'node:crypto';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/lib/compileSchemaValidatorsCode.js';

/**
 * One form schema, two validators from the same ajv: the server's (checks FormData before the
 * provider sees it) and the portal's, compiled here to standalone code and served as a same-origin
 * module, because the portal's Content-Security-Policy has no 'unsafe-eval' and ajv compiles to
 * `new Function` (docs/decisions/007-server-compiled-form-validators.md).
 */
export interface CompiledForm {
  /** Content hash of the schema: the module's address, cacheable for ever. */
  hash: string;
  validate: ValidateFunction;
  /** An ES module whose default export is rjsf's `ValidatorFunctions` map for `createPrecompiledValidator`. */
  moduleCode: string;
}

const ajv = new Ajv({ allErrors: true, strict: false });

export function compileForm(schema: Record<string, unknown>): CompiledForm {
  const json = JSON.stringify(schema);
  const hash = createHash('sha256').update(json).digest('hex').slice(0, 16);
  // ajv's standalone output is CommonJS (`exports["<hash>"] = validateN`); the ids rjsf gives
  // subschemas start with digits, which ES export names cannot, so the map is the default export.
  const cjs = compileSchemaValidatorsCode(JSON.parse(json), { ajvOptionsOverrides: { code: { lines: false } } });
  const moduleCode = `const exports = {};\n${cjs.replace(/^"use strict";/, '')}\nexport default exports;\n`;
  return { hash, validate: ajv.compile(JSON.parse(json)), moduleCode };
}

/** The first problem with the form's data as a 400 message naming the field (`FormData.PassportNumber: ...`). */
export function formDataProblem(errors: readonly ErrorObject[] | null | undefined): string | undefined {
  // `if` only says a `then` failed; the `then`'s own error names the field.
  const error = errors?.find((candidate) => candidate.keyword !== 'if');
  if (!error) return undefined;
  const missing = error.keyword === 'required' && typeof error.params.missingProperty === 'string' ? `.${error.params.missingProperty}` : '';
  const path = error.instancePath.split('/').filter(Boolean).map((part) => `.${part}`).join('');
  const detail = error.keyword === 'required' ? 'is required' : error.keyword === 'pattern' ? 'does not have the expected shape' : (error.message ?? 'is not valid');
  return `FormData${path}${missing}: ${detail}`;
}
