import * as z from 'zod/mini';
import {
  CompanyListResponseSchema,
  CompanyLookupResponseSchema,
  FormDefinitionResponseSchema,
  GenerateReportResponseSchema,
  IndividualListResponseSchema,
  RefCodeResponseSchema,
  VerificationDetailSchema,
  VerifyResponseSchema,
  type CompanyListResponse,
  type CompanyLookupResponse,
  type GenerateReportResponse,
  type IndividualListResponse,
  type IndividualVerificationType,
  type LoadedForm,
  type VerificationDetail,
  type VerificationService,
  type VerifyRequest,
  type VerifyResponse,
} from '../schemas/verifications.schema.ts';
import { loadFormValidators } from './form-validators.service.ts';
import { downloadFile, getJson, postJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

/** SUV §7: the verification service's tenant-specific base. */
const api = (path: string) => `${runtimeConfig().entityVerificationBase}${path}`;

export type { LoadedForm };

export type VerificationList = { service: 'Company'; list: CompanyListResponse } | { service: 'Individual'; list: IndividualListResponse };

/** GET /{service}?Page={n}&search={text}: one page of 10 and the total. */
export async function listVerifications(service: VerificationService, page: number, search: string): Promise<VerificationList> {
  const query = new URLSearchParams({ Page: String(page), search });
  if (service === 'Company') return { service, list: await getJson(api(`/Company?${query}`), CompanyListResponseSchema) };
  return { service, list: await getJson(api(`/Individual?${query}`), IndividualListResponseSchema) };
}

/** POST /company/verify {CompanyNumber}: a non-ok answer means not found (SUV §7). */
export function verifyCompany(companyNumber: string): Promise<CompanyLookupResponse> {
  return postJson(api('/company/verify'), { CompanyNumber: companyNumber }, CompanyLookupResponseSchema);
}

/** POST /company/generate-report {company_number, company_name}. */
export function generateCompanyReport(companyNumber: string, companyName: string): Promise<GenerateReportResponse> {
  return postJson(api('/company/generate-report'), { company_number: companyNumber, company_name: companyName }, GenerateReportResponseSchema);
}

/** POST /{company|individual}/{id without its first character}/ref-code {ref_code}. */
export function setRefCode(service: VerificationService, numericId: string, refCode: string): Promise<{ ref_code: string }> {
  return postJson(api(`/${service.toLowerCase()}/${encodeURIComponent(numericId)}/ref-code`), { ref_code: refCode }, RefCodeResponseSchema);
}

const JsonObjectSchema = z.record(z.string(), z.unknown());
const parseObject = (text: string) => JsonObjectSchema.parse(JSON.parse(text));

async function loadForm(url: string): Promise<LoadedForm> {
  const definition = await getJson(url, FormDefinitionResponseSchema);
  const validators = await loadFormValidators(definition.validatorModule);
  return {
    schema: parseObject(definition.jsonSchema),
    uiSchema: parseObject(definition.uiSchema),
    data: parseObject(definition.data),
    validatorModule: definition.validatorModule,
    validators,
  };
}

let prefetchedTypeForm: Promise<LoadedForm> | undefined;

/**
 * Starts loading step 1 ahead, when New is hovered or focused on the Individual tab: the wizard's
 * next open takes this load instead of asking again (issue 29: open → first form interactive ≤ 300 ms).
 * A failed prefetch is dropped, so the open asks afresh.
 */
export function prefetchTypeForm(): void {
  if (prefetchedTypeForm) return;
  const pending = loadForm(api('/individual/form'));
  prefetchedTypeForm = pending;
  pending.catch(() => {
    if (prefetchedTypeForm === pending) prefetchedTypeForm = undefined;
  });
}

/** GET /individual/form: step 1 (the verification type); a prefetched load is used once. */
export function loadTypeForm(): Promise<LoadedForm> {
  const pending = prefetchedTypeForm ?? loadForm(api('/individual/form'));
  prefetchedTypeForm = undefined;
  return pending;
}

/** GET /individual/details?verificationType={type}: step 2. */
export const loadDetailsForm = (type: IndividualVerificationType) => loadForm(api(`/individual/details?verificationType=${encodeURIComponent(type)}`));

/** POST /individual/verify. */
export function verifyIndividual(request: VerifyRequest): Promise<VerifyResponse> {
  return postJson(api('/individual/verify'), request, VerifyResponseSchema);
}

/** GET /individual/verifications/details/{numeric id}. */
export function getVerificationDetail(numericId: string): Promise<VerificationDetail> {
  return getJson(api(`/individual/verifications/details/${encodeURIComponent(numericId)}`), VerificationDetailSchema);
}

/** GET {reportLink}: the PDF, named from content-disposition (SUV §7 defaults: VerificationReport.pdf on the company path, else report.pdf). */
export function downloadReport(reportLink: string, service: VerificationService): Promise<void> {
  return downloadFile(reportLink, service === 'Company' ? 'VerificationReport.pdf' : 'report.pdf');
}
