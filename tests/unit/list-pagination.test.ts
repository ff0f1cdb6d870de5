import { describe, expect, it } from 'vitest';
import { pageItems, pageRange, rangeText, type PageItem } from '../../src/domain/pagination.ts';

const labels = (items: PageItem[]) =>
  items.map((item) => (item.kind === 'gap' ? '…' : item.current ? `[${item.page}]` : String(item.page))).join(' ');

describe('page numbers (AM §9: about 7 around the current, first, last, ellipses)', () => {
  it('lists every page when there are few', () => {
    expect(labels(pageItems(1, 1))).toBe('[1]');
    expect(labels(pageItems(3, 7))).toBe('1 2 [3] 4 5 6 7');
  });

  it('keeps 7 pages around the current one with the first and last and gaps', () => {
    expect(labels(pageItems(10, 20))).toBe('1 … 7 8 9 [10] 11 12 13 … 20');
    expect(labels(pageItems(1, 20))).toBe('[1] 2 3 4 5 6 7 … 20');
    expect(labels(pageItems(20, 20))).toBe('1 … 14 15 16 17 18 19 [20]');
  });

  it('shows a single skipped page instead of a gap', () => {
    expect(labels(pageItems(5, 9))).toBe('1 2 3 4 [5] 6 7 8 9');
    expect(labels(pageItems(5, 10))).toBe('1 2 3 4 [5] 6 7 8 … 10');
  });

  it('offers nothing for an empty list, and the pages for a page past the end', () => {
    expect(pageItems(1, 0)).toEqual([]);
    expect(labels(pageItems(30, 3))).toBe('1 2 3');
  });
});

describe("the range 'x - y of total'", () => {
  it('reads the rows on the page', () => {
    expect(rangeText(1, 20, 315)).toBe('1 - 20 of 315');
    expect(rangeText(16, 20, 315)).toBe('301 - 315 of 315');
    expect(rangeText(2, 50, 1234)).toBe('51 - 100 of 1,234');
  });

  it('is 0 - 0 when the page holds no rows', () => {
    expect(pageRange(1, 20, 0)).toEqual({ first: 0, last: 0 });
    expect(rangeText(9, 20, 40)).toBe('Past the end · 40 in all');
    expect(rangeText(1, 20, 0)).toBe('0 - 0 of 0');
  });
});
