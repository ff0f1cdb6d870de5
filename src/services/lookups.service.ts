import { SystemInformationSchema, type SystemInformation } from '../schemas/configuration.schema.ts';
import {
  AssigneesResponseSchema,
  OptionListSchema,
  OwnersResponseSchema,
  type AssigneeOption,
  type OptionList,
  type Owner,
} from '../schemas/lookups.schema.ts';
import { getJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;

/** GET /label/list: the labels staff set (AM §7). */
export function labels(): Promise<OptionList> {
  return getJson(api('/label/list'), OptionListSchema);
}

/** GET /label/system/list: the system labels, shown as Tag. */
export function systemLabels(): Promise<OptionList> {
  return getJson(api('/label/system/list'), OptionListSchema);
}

/** GET /subbrand/list. */
export function subBrands(): Promise<OptionList> {
  return getJson(api('/subbrand/list'), OptionListSchema);
}

/** GET /product/list. */
export function products(): Promise<OptionList> {
  return getJson(api('/product/list'), OptionListSchema);
}

/** GET /account/assignees: the people applications can be assigned to. */
export async function assignees(): Promise<AssigneeOption[]> {
  return (await getJson(api('/account/assignees'), AssigneesResponseSchema)).Assignees;
}

/** GET /owner/list: the owners a new application can be made on behalf of. */
export async function owners(): Promise<Owner[]> {
  return (await getJson(api('/owner/list'), OwnersResponseSchema)).ApplicationOwners;
}

/** GET /configuration/information: the application statuses (the STATUS filter's options) and limits. */
export function systemInformation(): Promise<SystemInformation> {
  return getJson(api('/configuration/information'), SystemInformationSchema);
}
