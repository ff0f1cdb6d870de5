import { z } from 'zod';
import {
  applicationTypes,
  languages,
  maxExternalIdLength,
  maxInvestmentAmount,
  maxPromoCodeLength,
  maxTextLength,
  signingModes,
  templateColumns,
  type ColumnKey,
} from './template-columns.ts';
import type { TemplateLookups, UploadRows } from './workbook.ts';

/** One invalid cell: its sheet row (1-based), its column (0-based, template order) and why. */
export interface CellProblem {
  row: number;
  column: number;
  message: string;
}

/** One valid row, ready to insert. */
export interface ImportRow {
  accountName: string;
  applicationType: string;
  shortApplicationType: string;
  firstName: string;
  lastName: string;
  email: string;
  mobile: string;
  subBrand: string;
  productCodes: string[];
  ownerIndex: number;
  externalId: string;
  investmentAmount: number;
  language: string;
  promoCode: string;
  signingMode: string;
}

const columnIndexes = new Map(templateColumns.map((column, index) => [column.key, index]));
const indexOf = (key: ColumnKey) => columnIndexes.get(key) ?? -1;
/** Rows checked between two turns of the event loop: a slice takes a few milliseconds. */
const sliceRows = 250;
const emailSchema = z.email();
const lower = (value: string) => value.toLowerCase();

/** An Australian mobile in any usual spelling, as 04XXXXXXXX; undefined when it is not one. */
export function australianMobile(text: string, number: number | undefined): string | undefined {
  // A number-formatted cell loses the leading 0: 412345678.
  const raw = number !== undefined && Number.isInteger(number) ? `0${number}` : text;
  const digits = raw.replace(/[\s\-().]/g, '');
  const match = /^(?:\+?61|0)?(4\d{8})$/.exec(digits.startsWith('00') ? digits.slice(1) : digits);
  return match ? `0${match[1]}` : undefined;
}

/**
 * Checks every cell of every row against the template's rules and the tenant's lists; `existing`
 * are external ids already used by the tenant's applications (lower case).
 */
export function validateRows(
  rows: UploadRows,
  lookups: TemplateLookups,
  existingExternalIds: ReadonlySet<string>,
) {
  const validator = rowValidator(lookups, existingExternalIds);
  validator.check(rows);
  return validator.outcome;
}

/**
 * validateRows a slice at a time, yielding to the event loop between slices: 10,000 rows take a
 * few hundred milliseconds, which in one go would hold every other request on this thread.
 */
export async function validateRowsInSlices(
  rows: UploadRows,
  lookups: TemplateLookups,
  existingExternalIds: ReadonlySet<string>,
) {
  const validator = rowValidator(lookups, existingExternalIds);
  for (let start = 0; start < rows.length; start += sliceRows) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    validator.check(rows.slice(start, start + sliceRows));
  }
  return validator.outcome;
}

/** The checks with their state (the tenant's lists, external ids seen so far), fed rows in order. */
function rowValidator(lookups: TemplateLookups, existingExternalIds: ReadonlySet<string>) {
  const problems: CellProblem[] = [];
  const valid: ImportRow[] = [];
  const types = new Map(applicationTypes.map(([name, short]) => [lower(name), { name, short }]));
  const languageNames = new Map(languages.map((name) => [lower(name), name]));
  const modes = new Map(signingModes.map(([name, code]) => [lower(name), code]));
  const subBrands = new Map(lookups.subBrands.map((name) => [lower(name), name]));
  const productsByKey = new Map<string, string>();
  for (const product of lookups.products) {
    productsByKey.set(lower(product.code), product.code);
    productsByKey.set(lower(product.name), product.code);
    productsByKey.set(lower(`${product.name} (${product.code})`), product.code);
  }
  const owners = new Map<string, number>();
  lookups.owners.forEach((name, index) => owners.set(lower(name), owners.has(lower(name)) ? -1 : index));
  const externalIdRows = new Map<string, number>();

  const check = (rows: UploadRows) => {
    for (const { row, cells, numbers } of rows) {
      const before = problems.length;
      const cell = (key: ColumnKey) => cells[indexOf(key)] ?? '';
      const fail = (key: ColumnKey, message: string) => problems.push({ row, column: indexOf(key), message });
      for (const column of templateColumns) {
        if (column.required && cell(column.key) === '') fail(column.key, `${column.header} is required.`);
      }
      for (const key of ['AccountName', 'FirstName', 'LastName'] as const) {
        if (cell(key).length > maxTextLength) fail(key, `At most ${maxTextLength} characters.`);
      }
      const type = types.get(lower(cell('ApplicationType')));
      if (cell('ApplicationType') !== '' && !type)
        fail('ApplicationType', `"${cell('ApplicationType')}" is not an application type.`);
      if (cell('Email') !== '' && !emailSchema.safeParse(cell('Email')).success)
        fail('Email', `"${cell('Email')}" is not a valid e-mail address.`);
      const mobileText = cell('Mobile');
      const mobile = mobileText === '' ? '' : australianMobile(mobileText, numbers[indexOf('Mobile')]);
      if (mobile === undefined)
        fail('Mobile', `"${mobileText}" is not an Australian mobile number (04XX XXX XXX).`);
      const subBrand = cell('SubBrand') === '' ? '' : subBrands.get(lower(cell('SubBrand')));
      if (subBrand === undefined)
        fail('SubBrand', `"${cell('SubBrand')}" is not a sub-brand of this organisation.`);
      const productCodes: string[] = [];
      for (const name of cell('Products')
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)) {
        const code = productsByKey.get(lower(name));
        if (!code) fail('Products', `"${name}" is not a product of this organisation.`);
        else if (!productCodes.includes(code)) productCodes.push(code);
      }
      const ownerIndex = owners.get(lower(cell('Owner')));
      if (cell('Owner') !== '' && ownerIndex === undefined)
        fail('Owner', `"${cell('Owner')}" is not an owner in this organisation.`);
      if (ownerIndex === -1) fail('Owner', `More than one owner is called "${cell('Owner')}".`);
      const externalId = cell('ExternalId');
      if (externalId.length > maxExternalIdLength)
        fail('ExternalId', `At most ${maxExternalIdLength} characters.`);
      if (externalId !== '') {
        const earlier = externalIdRows.get(lower(externalId));
        if (earlier !== undefined) fail('ExternalId', `"${externalId}" is also on row ${earlier}.`);
        else if (existingExternalIds.has(lower(externalId)))
          fail('ExternalId', `"${externalId}" is already used by an existing application.`);
        else externalIdRows.set(lower(externalId), row);
      }
      const amountText = cell('InvestmentAmount');
      const amount =
        amountText === ''
          ? 0
          : (numbers[indexOf('InvestmentAmount')] ?? Number(amountText.replace(/[$,\s]/g, '')));
      if (!Number.isFinite(amount) || amount < 0 || amount > maxInvestmentAmount) {
        fail(
          'InvestmentAmount',
          `Must be a number from 0 to ${maxInvestmentAmount.toLocaleString('en-AU')}.`,
        );
      }
      const language = cell('Language') === '' ? 'English' : languageNames.get(lower(cell('Language')));
      if (!language) fail('Language', `"${cell('Language')}" is not a supported language.`);
      if (cell('PromoCode').length > maxPromoCodeLength)
        fail('PromoCode', `At most ${maxPromoCodeLength} characters.`);
      const mode = cell('SigningMode') === '' ? 'Pin' : modes.get(lower(cell('SigningMode')));
      if (!mode) fail('SigningMode', 'Must be Online or Print & Sign.');

      if (
        problems.length === before &&
        type &&
        mobile !== undefined &&
        subBrand !== undefined &&
        ownerIndex !== undefined &&
        language &&
        mode
      ) {
        valid.push({
          accountName: cell('AccountName'),
          applicationType: type.name,
          shortApplicationType: type.short,
          firstName: cell('FirstName'),
          lastName: cell('LastName'),
          email: cell('Email'),
          mobile,
          subBrand,
          productCodes,
          ownerIndex,
          externalId,
          investmentAmount: Math.round(amount * 100) / 100,
          language,
          promoCode: cell('PromoCode'),
          signingMode: mode,
        });
      }
    }
  };
  return { check, outcome: { problems, valid } };
}
