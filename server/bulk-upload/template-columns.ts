/**
 * The bulk-upload template's columns (issue 15), in sheet order. The header row must carry exactly
 * these texts; each column says what the Instructions sheet tells people and how a cell is checked.
 */
export interface TemplateColumn {
  key: ColumnKey;
  header: string;
  required: boolean;
  width: number;
  help: string;
}

export type ColumnKey =
  | 'AccountName'
  | 'ApplicationType'
  | 'FirstName'
  | 'LastName'
  | 'Email'
  | 'Mobile'
  | 'SubBrand'
  | 'Products'
  | 'Owner'
  | 'ExternalId'
  | 'InvestmentAmount'
  | 'Language'
  | 'PromoCode'
  | 'SigningMode';

export const applicationsSheetName = 'Applications';
export const instructionsSheetName = 'Instructions';
export const listsSheetName = 'Lists';
/** The column the error workbook adds after the template's: each row's problems in words. */
export const issuesHeader = 'Issues';

export const applicationTypes = [
  ['Individual', 'IND'],
  ['Joint', 'JNT'],
  ['Company', 'CO'],
  ['Trust', 'TRT'],
  ['SMSF', 'SMSF'],
  ['Partnership', 'PTN'],
] as const;
export const languages = ['English', 'Chinese', 'Vietnamese', 'Arabic', 'Italian', 'Greek', 'Hindi'] as const;
/** AM §5 signing mode choices: Online (Pin) or Print & Sign (PrintandSign). */
export const signingModes = [
  ['Online', 'Pin'],
  ['Print & Sign', 'PrintandSign'],
] as const;

export const maxInvestmentAmount = 1_000_000_000;
export const maxTextLength = 200;
export const maxExternalIdLength = 50;
export const maxPromoCodeLength = 20;

export const templateColumns: readonly TemplateColumn[] = [
  {
    key: 'AccountName',
    header: 'Account Name',
    required: true,
    width: 28,
    help: `The account's name, at most ${maxTextLength} characters.`,
  },
  {
    key: 'ApplicationType',
    header: 'Application Type',
    required: true,
    width: 18,
    help: 'One of the types in the list.',
  },
  {
    key: 'FirstName',
    header: 'Applicant First Name',
    required: true,
    width: 20,
    help: "The primary applicant's first name.",
  },
  {
    key: 'LastName',
    header: 'Applicant Last Name',
    required: true,
    width: 20,
    help: "The primary applicant's last name.",
  },
  {
    key: 'Email',
    header: 'Email',
    required: true,
    width: 28,
    help: "The primary applicant's e-mail address; the application's e-mails go there.",
  },
  {
    key: 'Mobile',
    header: 'Mobile',
    required: false,
    width: 16,
    help: 'An Australian mobile number: 04XX XXX XXX or +61 4XX XXX XXX.',
  },
  {
    key: 'SubBrand',
    header: 'Sub-Brand',
    required: false,
    width: 18,
    help: "One of this organisation's sub-brands, or empty.",
  },
  {
    key: 'Products',
    header: 'Products',
    required: false,
    width: 30,
    help: 'Product names or codes from the Lists sheet, separated by commas.',
  },
  {
    key: 'Owner',
    header: 'Owner',
    required: true,
    width: 22,
    help: 'The adviser who owns the application: a name from the list.',
  },
  {
    key: 'ExternalId',
    header: 'External ID',
    required: false,
    width: 16,
    help: `Your reference, at most ${maxExternalIdLength} characters; unique in the file and among existing applications.`,
  },
  {
    key: 'InvestmentAmount',
    header: 'Investment Amount',
    required: false,
    width: 18,
    help: `A number from 0 to ${maxInvestmentAmount.toLocaleString('en-AU')}; empty means 0.`,
  },
  {
    key: 'Language',
    header: 'Language',
    required: false,
    width: 14,
    help: 'One of the languages in the list; empty means English.',
  },
  {
    key: 'PromoCode',
    header: 'Promo Code',
    required: false,
    width: 14,
    help: `At most ${maxPromoCodeLength} characters.`,
  },
  {
    key: 'SigningMode',
    header: 'Signing Mode',
    required: false,
    width: 14,
    help: 'Online or Print & Sign; empty means Online.',
  },
];
