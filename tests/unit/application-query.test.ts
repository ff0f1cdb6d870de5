import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  defaultListQuery,
  listQueryToApiParams,
  listQueryToParams,
  nextSort,
  parseListQuery,
  withQueryChange,
  type ApplicationListQuery,
} from '../../src/domain/application-query.ts';
import { sortableColumns } from '../../src/schemas/applications.schema.ts';

const parse = (search: string) => parseListQuery(new URLSearchParams(search));

describe('parseListQuery', () => {
  it('gives the defaults for an empty address: page 1, 20 rows, ID descending', () => {
    expect(parse('')).toEqual({ ok: true, query: defaultListQuery });
  });

  it('reads every packed filter as a JSON array, keeping the (None) empty value', () => {
    const result = parse(
      `status=${encodeURIComponent('["Complete","Locked"]')}&assignee=${encodeURIComponent('["", "6f1c2a9e-0d4b-4c3e-9a51-2b7d8e9f0a1b"]')}&q=%20smith%20&sortBy=Status&sortType=asc&mustHaveAllSelectedProducts=true&pageNo=3&rowsPerPage=50`,
    );
    expect(result).toEqual({
      ok: true,
      query: {
        ...defaultListQuery,
        status: ['Complete', 'Locked'],
        assignee: ['', '6f1c2a9e-0d4b-4c3e-9a51-2b7d8e9f0a1b'],
        q: 'smith',
        sortBy: 'Status',
        sortType: 'asc',
        mustHaveAllSelectedProducts: true,
        pageNo: 3,
        rowsPerPage: 50,
      },
    });
  });

  it.each([
    ['pageNo=0', 'pageNo'],
    ['pageNo=-1', 'pageNo'],
    ['pageNo=abc', 'pageNo'],
    ['rowsPerPage=0', 'rowsPerPage'],
    ['rowsPerPage=1000', 'rowsPerPage'],
    ['status=Complete', 'status'],
    ['label=%5B1%2C2%5D', 'label'],
    ['products=%7B%7D', 'products'],
    ['sortBy=Password', 'sortBy'],
    ['sortBy=Actions', 'sortBy'],
    ['sortType=up', 'sortType'],
    ['mustHaveAllSelectedProducts=yes', 'mustHaveAllSelectedProducts'],
    ['assignee=%5B%22bob%22%5D', 'assignee'],
  ])('refuses %s naming %s', (search, parameter) => {
    const result = parse(search);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.parameter).toBe(parameter);
      expect(result.message.startsWith(`${parameter}:`)).toBe(true);
    }
  });
});

const queryArbitrary: fc.Arbitrary<ApplicationListQuery> = fc.record({
  pageNo: fc.integer({ min: 1, max: 50_000 }),
  rowsPerPage: fc.integer({ min: 1, max: 200 }),
  status: fc.uniqueArray(fc.string()),
  label: fc.uniqueArray(fc.string()),
  sysLabel: fc.uniqueArray(fc.string()),
  assignee: fc.uniqueArray(fc.oneof(fc.constant(''), fc.uuid())),
  subBrand: fc.uniqueArray(fc.string()),
  products: fc.uniqueArray(fc.string()),
  applicationType: fc.uniqueArray(fc.string()),
  mustHaveAllSelectedProducts: fc.boolean(),
  createdFrom: fc.constantFrom('', '2026-01-31'),
  createdTo: fc.constantFrom('', '2026-02-28'),
  completedFrom: fc.constantFrom('', '2025-12-01'),
  completedTo: fc.constantFrom('', '2026-11-27'),
  completed: fc.constantFrom('' as const, 'true' as const, 'false' as const),
  q: fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { maxLength: 5 }).map((words) => words.join(' ')),
  sortBy: fc.constantFrom(...sortableColumns),
  sortType: fc.constantFrom('asc' as const, 'desc' as const),
});

describe('address round trip', () => {
  it('any query written to parameters reads back identical', () => {
    fc.assert(
      fc.property(queryArbitrary, (query) => {
        expect(parseListQuery(listQueryToApiParams(query))).toEqual({ ok: true, query });
      }),
    );
  });

  it('leaves defaults out of the address', () => {
    expect(listQueryToParams(defaultListQuery).toString()).toBe('');
  });
});

describe('query changes', () => {
  it('any change of filter, search or sort returns to page 1', () => {
    const onPage7 = { ...defaultListQuery, pageNo: 7 };
    expect(withQueryChange(onPage7, { q: 'x' }).pageNo).toBe(1);
    expect(withQueryChange(onPage7, { status: ['Complete'] }).pageNo).toBe(1);
    expect(withQueryChange(onPage7, nextSort(onPage7, 'Email')).pageNo).toBe(1);
  });

  it('sorts a new column descending first, then toggles', () => {
    expect(nextSort(defaultListQuery, 'Email')).toEqual({ sortBy: 'Email', sortType: 'desc' });
    expect(nextSort(defaultListQuery, 'ID')).toEqual({ sortBy: 'ID', sortType: 'asc' });
    expect(nextSort({ ...defaultListQuery, sortType: 'asc' }, 'ID')).toEqual({ sortBy: 'ID', sortType: 'desc' });
  });
});
