import { describe, expect, it } from 'vitest';
import { activitySince, liveBannerText, liveChangeText, rowsUpdatedInPlace } from '../../src/domain/live-changes.ts';

describe('the list banner of colleagues’ changes (issue 42)', () => {
  it('counts arrivals and departures in words, and says nothing when none wait', () => {
    expect(liveBannerText({ added: [], removed: [], stale: false })).toBeUndefined();
    expect(liveBannerText({ added: [7], removed: [], stale: false })).toBe('1 new application');
    expect(liveBannerText({ added: [7, 8, 9], removed: [], stale: false })).toBe('3 new applications');
    expect(liveBannerText({ added: [], removed: [4], stale: false })).toBe('1 application removed');
    expect(liveBannerText({ added: [], removed: [4, 5], stale: false })).toBe('2 applications removed');
    expect(liveBannerText({ added: [7, 8], removed: [4], stale: true })).toBe('2 new applications, 1 removed');
    expect(liveBannerText({ added: [], removed: [], stale: true })).toBe('This list has changed');
  });

  it('updates the shown rows where they stand: a row gone from the fresh read stays, a new one is not placed', () => {
    const shown = [
      { ApplicationGuid: 'a', Status: 'Old' },
      { ApplicationGuid: 'b', Status: 'Old' },
    ];
    const fresh = [
      { ApplicationGuid: 'c', Status: 'New' },
      { ApplicationGuid: 'a', Status: 'New' },
    ];
    expect(rowsUpdatedInPlace(shown, fresh)).toEqual([
      { ApplicationGuid: 'a', Status: 'New' },
      { ApplicationGuid: 'b', Status: 'Old' },
    ]);
  });
});

describe('the detail notice of a colleague’s change (issue 42)', () => {
  const at = 1_790_000_000;
  const assigned = { Activity: 'Assigned to Sam Lee by Avery Admin', TimeStamp: at };
  it('says who changed what and how long ago', () => {
    expect(liveChangeText(assigned, 'Morgan Manager', at * 1000 + 5_000)).toBe('Assigned to Sam Lee by Avery Admin, just now');
    expect(liveChangeText(assigned, 'Morgan Manager', at * 1000 + 59_999)).toBe('Assigned to Sam Lee by Avery Admin, just now');
    expect(liveChangeText(assigned, 'Morgan Manager', at * 1000 + 60_000)).toBe('Assigned to Sam Lee by Avery Admin, 1 minute ago');
    expect(liveChangeText(assigned, 'Morgan Manager', at * 1000 + 7_200_000)).toBe('Assigned to Sam Lee by Avery Admin, 2 hours ago');
  });
  it('says nothing of the viewer’s own change, nor without one', () => {
    expect(liveChangeText(assigned, 'Avery Admin', at * 1000)).toBeUndefined();
    expect(liveChangeText(undefined, 'Morgan Manager', at * 1000)).toBeUndefined();
  });
});

describe('the entries a colleague’s change added (issue 42)', () => {
  const label = { Activity: 'Label set to Awaiting client by Avery Admin', TimeStamp: 1_760_000_100 };
  const older = { Activity: 'Assigned to Sam Lee by Avery Admin', TimeStamp: 1_760_000_050 };

  it('are the entries after the newest one shown', () => {
    const cancel = { Activity: 'Application cancelled by Avery Admin', TimeStamp: 1_760_000_101 };
    expect(activitySince([cancel, label, older], [label, older], 1_760_000_100)).toEqual([cancel]);
  });

  it('include an entry of the same second that was not shown (a cancel right after a label)', () => {
    const cancel = { Activity: 'Application cancelled by Avery Admin', TimeStamp: 1_760_000_100 };
    expect(activitySince([cancel, label, older], [label, older], 1_760_000_100)).toEqual([cancel]);
  });

  it('are none when nothing new was written', () => {
    expect(activitySince([label, older], [label, older], 1_760_000_100)).toEqual([]);
  });
});
