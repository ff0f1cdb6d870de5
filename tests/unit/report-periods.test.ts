import { describe, expect, it } from 'vitest';
import { checkRange, durationLabel, monthsOf, readRange, todayIn } from '../../src/domain/report-periods.ts';

/** The Reports page's range rule and labels (issue 39 points 5, 6, 19), shared by server and portal. */

describe('checkRange: the one rule of a report range', () => {
  it('refuses a day that does not exist, to before from, more than 3,660 days, the future', () => {
    const today = '2026-11-29';
    expect(checkRange({ from: '2026-02-30', to: '2026-03-31' }, today)).toEqual({ param: 'from', message: 'must be a real day written YYYY-MM-DD' });
    expect(checkRange({ from: '2026-03-01', to: '2026-02-01' }, today)).toEqual({ param: 'to', message: 'must not be before from (2026-03-01)' });
    expect(checkRange({ from: '2016-01-01', to: '2026-01-09' }, today)).toEqual({
      param: 'from',
      message: 'the range is at most 3,660 days (this one is 3,661)',
    });
    expect(checkRange({ from: '2026-11-01', to: '2026-11-30' }, today)).toEqual({ param: 'to', message: 'must not be after today (2026-11-29)' });
    expect(checkRange({ from: '2026-11-30' }, today)).toEqual({ param: 'from', message: 'must not be after today (2026-11-29)' });
  });

  it('accepts the edges: exactly 3,660 days, a range ending today, one day, the default', () => {
    const today = '2026-11-29';
    expect(checkRange({ from: '2016-01-01', to: '2026-01-08' }, today)).toBeUndefined();
    expect(checkRange({ from: '2026-11-29', to: '2026-11-29' }, today)).toBeUndefined();
    expect(checkRange({}, today)).toBeUndefined();
    expect(readRange({}, today)).toEqual({ ok: true, from: '2025-12-01', to: '2026-11-29' });
    expect(readRange({ to: '2026-03-15' }, today)).toEqual({ ok: true, from: '2025-04-01', to: '2026-03-15' });
  });

  it('in the portal before the tenant\'s day is known, checks all but the future', () => {
    expect(checkRange({ from: '2026-03-01', to: '2026-02-01' }, undefined)?.param).toBe('to');
    expect(checkRange({ from: '1980-02-30', to: '' }, undefined)?.param).toBe('from');
    expect(checkRange({ from: '2099-01-01', to: '2099-02-01' }, undefined)).toBeUndefined();
    expect(checkRange({ from: '2026-01-01', to: '' }, undefined)).toBeUndefined();
  });

  it("knows the tenant's day from its time zone", () => {
    const instant = new Date('2026-11-29T14:30:00Z');
    expect(todayIn('Australia/Sydney', instant)).toBe('2026-11-30');
    expect(todayIn('America/New_York', instant)).toBe('2026-11-29');
  });
});

describe('monthsOf: partial months', () => {
  it('marks only the months the range cuts or that are still running', () => {
    expect(monthsOf('2026-09-01', '2026-11-29', '2026-11-29').map((month) => [month.label, month.partial])).toEqual([
      ['Sep 2026', false],
      ['Oct 2026', false],
      ['Nov 2026', true],
    ]);
  });
});

describe('durationLabel', () => {
  it('shows minutes below two days and the nearest hour from two days on', () => {
    expect(durationLabel(39_780)).toBe('11 h 3 min');
    expect(durationLabel(10_800)).toBe('3 h');
    // 2 d 11 h 50 min is nearer 2 d 12 h than 2 d 11 h.
    expect(durationLabel(2 * 86_400 + 11 * 3_600 + 50 * 60)).toBe('2 d 12 h');
    expect(durationLabel(2 * 86_400 + 11 * 3_600 + 20 * 60)).toBe('2 d 11 h');
    expect(durationLabel(2 * 86_400 + 23 * 3_600 + 40 * 60)).toBe('3 d');
  });
});
