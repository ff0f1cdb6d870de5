/**
 * The Add Identification form's validators: a same-origin module the server compiled from the form's
 * schema (docs/decisions/007), imported once per address. Its default export is the validator functions.
 */
const loading = new Map<string, Promise<unknown>>();

export function loadFormValidators(url: string): Promise<unknown> {
  let pending = loading.get(url);
  if (!pending) {
    pending = import(/* @vite-ignore */ url).then((module: { default?: unknown }) => module.default);
    pending.catch(() => loading.delete(url));
    loading.set(url, pending);
  }
  return pending;
}
