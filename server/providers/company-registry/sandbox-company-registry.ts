import type { CompanyExtract, CompanyRegistry } from './company-registry.ts';
import { RegistryUnavailableError } from './company-registry.ts';

/**
 * The deterministic sandbox registry (README "Company registry sandbox"). Its companies carry
 * ASIC's own published example ACNs (all pass the check digit) and fictional names; any other
 * valid ACN is not found. 002 249 998 is found but its report cannot be produced (the error path).
 */
type SandboxCompany = Omit<CompanyExtract, 'asAt'>;

const office = (street: string, suburb: string, state: string, postcode: string) => `${street}, ${suburb} ${state} ${postcode}`;

export const sandboxCompanies: readonly SandboxCompany[] = [
  {
    companyNumber: '000000019',
    companyName: 'HARBOURSIDE HOLDINGS PTY LTD',
    registeredOffice: office('Level 4, 12 Bridge Street', 'SYDNEY', 'NSW', '2000'),
    status: 'Registered',
    companyType: 'Australian Proprietary Company, Limited By Shares',
    registeredOn: '1998-03-02',
    officeholders: [
      { name: 'Jordan Ellis HARTLEY', role: 'Director', appointed: '1998-03-02' },
      { name: 'Priya NAIDU', role: 'Director', appointed: '2011-07-19' },
      { name: 'Thomas Wei CHEN', role: 'Secretary', appointed: '2015-01-05' },
    ],
    shareStructure: [{ classCode: 'ORD', title: 'Ordinary shares', sharesIssued: 1000, amountPaid: 1000 }],
  },
  {
    companyNumber: '000250000',
    companyName: 'SOUTHERN CROSS LOGISTICS PTY LTD',
    registeredOffice: office('88 Collins Street', 'MELBOURNE', 'VIC', '3000'),
    status: 'Registered',
    companyType: 'Australian Proprietary Company, Limited By Shares',
    registeredOn: '2004-11-23',
    officeholders: [
      { name: 'Olivia Grace MARTIN', role: 'Director', appointed: '2004-11-23' },
      { name: 'Olivia Grace MARTIN', role: 'Secretary', appointed: '2004-11-23' },
    ],
    shareStructure: [
      { classCode: 'ORD', title: 'Ordinary shares', sharesIssued: 200, amountPaid: 200 },
      { classCode: 'PRF', title: 'Preference shares', sharesIssued: 50, amountPaid: 5000 },
    ],
  },
  {
    companyNumber: '000500005',
    companyName: 'BLUE GUM ORCHARDS LIMITED',
    registeredOffice: office('3 Orchard Road', 'HAHNDORF', 'SA', '5245'),
    status: 'Registered',
    companyType: 'Australian Public Company, Limited By Shares',
    registeredOn: '1987-06-30',
    officeholders: [
      { name: 'Margaret ROSS', role: 'Director', appointed: '1999-02-01' },
      { name: 'Ian Douglas FRASER', role: 'Director', appointed: '2008-09-12' },
      { name: 'Hannah LEE', role: 'Director', appointed: '2020-03-03' },
      { name: 'Ian Douglas FRASER', role: 'Secretary', appointed: '2008-09-12' },
    ],
    shareStructure: [{ classCode: 'ORD', title: 'Ordinary shares', sharesIssued: 2500000, amountPaid: 2500000 }],
  },
  {
    companyNumber: '000750005',
    companyName: 'KOOKABURRA DIGITAL PTY LTD',
    registeredOffice: office('21 Eagle Street', 'BRISBANE', 'QLD', '4000'),
    status: 'Registered',
    companyType: 'Australian Proprietary Company, Limited By Shares',
    registeredOn: '2016-02-14',
    officeholders: [{ name: 'Liam O\'BRIEN', role: 'Director', appointed: '2016-02-14' }],
    shareStructure: [{ classCode: 'ORD', title: 'Ordinary shares', sharesIssued: 100, amountPaid: 100 }],
  },
  {
    companyNumber: '001000004',
    companyName: 'WESTERN SANDS MINING NL',
    registeredOffice: office('140 St Georges Terrace', 'PERTH', 'WA', '6000'),
    status: 'Deregistered',
    companyType: 'Australian Public Company, No Liability',
    registeredOn: '1979-08-08',
    officeholders: [{ name: 'Graham STOKES', role: 'Director', appointed: '1979-08-08' }],
    shareStructure: [{ classCode: 'ORD', title: 'Ordinary shares', sharesIssued: 10000000, amountPaid: 2500000 }],
  },
  {
    companyNumber: '001250004',
    companyName: 'TASMAN BAY TRUSTEES PTY LTD',
    registeredOffice: office('7 Salamanca Place', 'HOBART', 'TAS', '7000'),
    status: 'Registered',
    companyType: 'Australian Proprietary Company, Limited By Shares',
    registeredOn: '2012-05-01',
    officeholders: [
      { name: 'Sophie NGUYEN', role: 'Director', appointed: '2012-05-01' },
      { name: 'Daniel NGUYEN', role: 'Director', appointed: '2012-05-01' },
    ],
    shareStructure: [{ classCode: 'ORD', title: 'Ordinary shares', sharesIssued: 2, amountPaid: 2 }],
  },
  {
    companyNumber: '001500009',
    companyName: 'RED CENTRE TOURS PTY LTD',
    registeredOffice: office('5 Todd Mall', 'ALICE SPRINGS', 'NT', '0870'),
    status: 'Registered',
    companyType: 'Australian Proprietary Company, Limited By Shares',
    registeredOn: '2001-10-10',
    officeholders: [
      { name: 'Ava PATEL', role: 'Director', appointed: '2001-10-10' },
      { name: 'Noah SMITH', role: 'Secretary', appointed: '2003-04-22' },
    ],
    shareStructure: [{ classCode: 'ORD', title: 'Ordinary shares', sharesIssued: 500, amountPaid: 500 }],
  },
  {
    companyNumber: '002249998',
    companyName: 'UNAVAILABLE RECORDS PTY LTD',
    registeredOffice: office('1 Nowhere Lane', 'CANBERRA', 'ACT', '2600'),
    status: 'Registered',
    companyType: 'Australian Proprietary Company, Limited By Shares',
    registeredOn: '2010-01-01',
    officeholders: [],
    shareStructure: [],
  },
];

/** Found, but the registry cannot produce its extract: the report's error path. */
export const unavailableReportAcn = '002249998';

export function createSandboxCompanyRegistry(): CompanyRegistry & { readonly lookups: number } {
  const byNumber = new Map(sandboxCompanies.map((company) => [company.companyNumber, company]));
  let lookups = 0;
  return {
    name: 'sandbox',
    get lookups() {
      return lookups;
    },
    lookup: async (acn) => {
      lookups++;
      const company = byNumber.get(acn);
      return company && { companyNumber: company.companyNumber, companyName: company.companyName };
    },
    extract: async (acn, asAt) => {
      lookups++;
      if (acn === unavailableReportAcn) throw new RegistryUnavailableError('The registry could not produce the extract.');
      const company = byNumber.get(acn);
      return company && { ...company, officeholders: [...company.officeholders], shareStructure: [...company.shareStructure], asAt: asAt.toISOString() };
    },
  };
}
