import { RuntimeConfigSchema, type RuntimeConfig } from '../schemas/configuration.schema.ts';
import { getJson } from './http.ts';

/** Fixed, because it is the answer that names every other base address. */
const runtimeConfigUrl = '/api/configuration/portal';

let current: RuntimeConfig | undefined;

/** Fetches and validates the runtime configuration; boot awaits this before anything else. */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  current = await getJson(runtimeConfigUrl, RuntimeConfigSchema, { anonymous: true });
  return current;
}

/** The configuration loaded at boot. Services only run after boot, so its absence is a programming error. */
export function runtimeConfig(): RuntimeConfig {
  if (!current) throw new Error('The runtime configuration is read before boot loaded it.');
  return current;
}
