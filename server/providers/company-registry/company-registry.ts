import { isValidAcn } from '../../../src/domain/verifications.ts';

/**
 * The company registry (SUV §1: company checks by ACN, and the registry report). A real registry
 * (ASIC through an information broker) implements `CompanyRegistry`; the deterministic sandbox is
 * the default (README "Company registry sandbox").
 */
export interface Officeholder {
  name: string;
  role: 'Director' | 'Secretary';
  appointed: string;
}

export interface ShareClass {
  classCode: string;
  title: string;
  sharesIssued: number;
  amountPaid: number;
}

/** What the registry holds about a company at one moment: the report's content. */
export interface CompanyExtract {
  companyNumber: string;
  companyName: string;
  registeredOffice: string;
  status: string;
  companyType: string;
  registeredOn: string;
  officeholders: Officeholder[];
  shareStructure: ShareClass[];
  /** ISO 8601: the moment the extract describes ("as at"). */
  asAt: string;
}

export class RegistryUnavailableError extends Error {}

export interface CompanyRegistry {
  readonly name: string;
  /** The company with this nine-digit ACN, or undefined when the registry has none. */
  lookup(acn: string): Promise<{ companyNumber: string; companyName: string } | undefined>;
  /** The full extract, as at `asAt`; throws RegistryUnavailableError when the registry cannot produce it. */
  extract(acn: string, asAt: Date): Promise<CompanyExtract | undefined>;
}

/**
 * Every lookup goes through here: an ACN failing ASIC's check digit cannot exist, so it is not
 * found without a registry call (which a real registry charges for).
 */
export async function findCompany(registry: CompanyRegistry, acn: string) {
  if (!isValidAcn(acn)) return undefined;
  return registry.lookup(acn);
}
