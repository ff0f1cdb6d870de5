import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { filtersKey, maxPage, parseListRequest, searchWords } from '../../src/domain/list-request.ts';
import { sortableColumns } from '../../src/domain/list-columns.ts';

const ok = (raw: Parameters<typeof parseListRequest>[0]) => {
  const parsed = parseListRequest(raw);
  if (!parsed.ok) throw new Error(`${parsed.param}: ${parsed.message}`);
  return parsed.value;
};

describe('parseListRequest', () => {
  it('defaults to page 1 of 20, ID descending, no filters', () => {
    expect(ok({})).toEqual({
      filters: {
        status: [],
        label: [],
        sysLabel: [],
        assignee: [],
        subBrand: [],
        products: [],
        mustHaveAllSelectedProducts: false,
        applicationType: [],
        createdFrom: null,
        createdTo: null,
        completedFrom: null,
        completedTo: null,
        completed: null,
        search: [],
      },
      sort: { sortBy: 'ID', sortType: 'desc' },
      paging: { pageNo: 1, rowsPerPage: 20 },
    });
  });

  it('reads the Reports drill-down filters: application types, days of creation and completion, completed or not', () => {
    const value = ok({ applicationType: '["Joint","Company"]', createdFrom: '2026-01-01', createdTo: '2026-01-31', completedTo: '2026-02-28', completed: 'FALSE' });
    expect(value.filters).toMatchObject({
      applicationType: ['Company', 'Joint'],
      createdFrom: '2026-01-01',
      createdTo: '2026-01-31',
      completedFrom: null,
      completedTo: '2026-02-28',
      completed: false,
    });
  });

  it.each([
    [{ createdFrom: '2026-02-30' }, 'createdFrom', 'must be a date written YYYY-MM-DD'],
    [{ completedTo: '1/2/2026' }, 'completedTo', 'must be a date written YYYY-MM-DD'],
    [{ createdFrom: '2026-02-02', createdTo: '2026-02-01' }, 'createdTo', 'must not be before createdFrom'],
    [{ completedFrom: '2026-02-02', completedTo: '2026-02-01' }, 'completedTo', 'must not be before completedFrom'],
    [{ completed: 'yes' }, 'completed', 'must be true or false'],
    [{ applicationType: '"Joint"' }, 'applicationType', 'must be a JSON array of strings'],
  ] as const)('refuses the drill-down parameter %j naming %s', (raw, param, message) => {
    expect(parseListRequest(raw)).toEqual({ ok: false, param, message });
  });

  it('reads the JSON-array filters, keeping the (None) empty value, de-duplicated and sorted', () => {
    const value = ok({ status: '["Locked","Complete","Locked"]', label: '[""]', assignee: '["", "6F1C0C9E-0000-4000-8000-000000000001"]' });
    expect(value.filters.status).toEqual(['Complete', 'Locked']);
    expect(value.filters.label).toEqual(['']);
    expect(value.filters.assignee).toEqual(['', '6f1c0c9e-0000-4000-8000-000000000001']);
  });

  it.each([
    [{ status: '[' }, 'status', 'must be a JSON array of strings'],
    [{ label: '{"a":1}' }, 'label', 'must be a JSON array of strings'],
    [{ products: '[1,2]' }, 'products', 'must be a JSON array of strings'],
    [{ assignee: '["bob"]' }, 'assignee', 'values must be user ids (or empty for none)'],
    [{ label: '["a\\u0000b"]' }, 'label', 'values must be text of at most 200 characters without NUL characters'],
    [{ status: JSON.stringify(['x'.repeat(201)]) }, 'status', 'values must be text of at most 200 characters without NUL characters'],
    [{ pageNo: '0' }, 'pageNo', 'must be a whole number of 1 or more'],
    [{ pageNo: '-1' }, 'pageNo', 'must be a whole number of 1 or more'],
    [{ pageNo: '1.5' }, 'pageNo', 'must be a whole number of 1 or more'],
    [{ rowsPerPage: '201' }, 'rowsPerPage', 'must be at most 200'],
    [{ sortBy: 'Nope' }, 'sortBy', 'unknown column Nope'],
    [{ sortBy: 'Actions' }, 'sortBy', 'unknown column Actions'],
    [{ sortType: 'up' }, 'sortType', 'must be asc or desc'],
    [{ mustHaveAllSelectedProducts: 'yes' }, 'mustHaveAllSelectedProducts', 'must be true or false'],
    [{ q: 'x'.repeat(201) }, 'q', 'at most 200 characters'],
  ])('refuses %j naming %s', (raw, param, message) => {
    expect(parseListRequest(raw)).toEqual({ ok: false, param, message });
  });

  it('accepts every sortable column both ways', () => {
    for (const sortBy of sortableColumns) {
      expect(ok({ sortBy, sortType: 'asc' }).sort).toEqual({ sortBy, sortType: 'asc' });
      expect(ok({ sortBy, sortType: 'DESC' }).sort).toEqual({ sortBy, sortType: 'desc' });
    }
  });

  it('drops mustHaveAllSelectedProducts without products, so equal lists share a key', () => {
    expect(ok({ mustHaveAllSelectedProducts: 'true' }).filters.mustHaveAllSelectedProducts).toBe(false);
    expect(ok({ products: '["MF"]', mustHaveAllSelectedProducts: 'true' }).filters.mustHaveAllSelectedProducts).toBe(true);
  });
});

describe('searchWords', () => {
  it('splits on anything but letters and digits, lower-cased, each word once', () => {
    expect(searchWords('  Jo.Smith@Example.com  ')).toEqual(['jo', 'smith', 'example', 'com']);
    expect(searchWords("O'Brien-Smith smith")).toEqual(['o', 'brien', 'smith']);
    expect(searchWords('!!!')).toEqual([]);
  });
});

describe('filtersKey', () => {
  it('is equal for the same filters written in any order and differs otherwise', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom('Complete', 'Locked', 'Primary edit', 'Adviser edit')), fc.string(), (statuses, q) => {
        const a = ok({ status: JSON.stringify(statuses), q });
        const b = ok({ status: JSON.stringify([...statuses].reverse()), q: q.toUpperCase() });
        expect(filtersKey(a.filters)).toBe(filtersKey(b.filters));
      }),
    );
    expect(filtersKey(ok({ label: '[""]' }).filters)).not.toBe(filtersKey(ok({}).filters));
  });
});

describe('maxPage', () => {
  it('counts pages, 0 for nothing', () => {
    expect(maxPage(0, 20)).toBe(0);
    expect(maxPage(1, 20)).toBe(1);
    expect(maxPage(40, 20)).toBe(2);
    expect(maxPage(41, 20)).toBe(3);
  });
});
