import { describe, expect, it } from 'vitest';
import { acknowledged, describeFailures, missingWrites, type Answer, type Created, type Sample } from '../../bench/soak-workload.ts';

/** The application form page as the server writes it, reduced to what the read-back reads. */
function formPage(id: number, status: string, accountName: string, code = 200): Answer {
  const html = `<h1>Application ${id}</h1><dl><dt>Status</dt><dd>${status}</dd></dl><input id="AccountName" name="AccountName" value="${accountName}">`;
  return { status: code, body: Buffer.from(html), headers: {} };
}

const app = (overrides: Partial<Created> = {}): Created => ({ id: 7, guid: 'g', token: 't', saves: [], ...overrides });

describe('missingWrites', () => {
  it('finds nothing missing when the page shows the create, the last acknowledged save and the cancel', () => {
    const saved = app({ saves: [{ value: 'a', acked: true }, { value: 'b', acked: true }] });
    expect(missingWrites(saved, formPage(7, 'Adviser edit', 'b'))).toEqual([]);
    expect(missingWrites(app({ cancel: { acked: true } }), formPage(7, 'Cancelled', ''))).toEqual([]);
  });

  it('accepts a value sent after the last acknowledged save, whose answer a fault lost', () => {
    const saved = app({ saves: [{ value: 'a', acked: true }, { value: 'b', acked: false }] });
    expect(missingWrites(saved, formPage(7, 'Adviser edit', 'b'))).toEqual([]);
  });

  it('names an acknowledged save the page does not show, with the server run where a soak counts them', () => {
    const saved = app({ saves: [{ value: 'a', acked: true, run: 2 }, { value: 'b', acked: false, run: 2 }] });
    expect(missingWrites(saved, formPage(7, 'Adviser edit', 'older'))).toEqual(['save of application 7 (run 2): AccountName older, expected a']);
  });

  it('names an acknowledged cancel the page does not show', () => {
    expect(missingWrites(app({ cancel: { acked: true } }), formPage(7, 'Adviser edit', ''))).toEqual(['cancel of application 7: status Adviser edit']);
  });

  it('names the create when the page is not the application’s', () => {
    expect(missingWrites(app({ run: 1 }), formPage(7, '', '', 404))).toEqual(['create of application 7 (run 1): form page answered 404']);
    expect(missingWrites(app(), formPage(8, 'Adviser edit', ''))).toEqual(['create of application 7: form page answered 200']);
  });
});

const failure = (op: string, error: string, status: number, retryAfter = false): Sample => ({
  kind: 'list',
  op,
  start: 0,
  end: 1,
  status,
  error,
  instance: 0,
  failedOver: false,
  retryAfter,
});

describe('describeFailures', () => {
  it('counts failures by operation and cause, the most frequent first, and says whether a 503 gave retry-after', () => {
    const failures = [failure('list/all', 'ECONNREFUSED', 0), failure('create', '503', 503, true), failure('list/all', 'ECONNREFUSED', 0), failure('save', '503', 503)];
    expect(describeFailures(failures)).toBe('list/all ECONNREFUSED ×2, create 503 with retry-after ×1, save 503 WITHOUT retry-after ×1');
  });

  it('says none for no failures', () => {
    expect(describeFailures([])).toBe('none');
  });
});

describe('acknowledged', () => {
  it('counts the creates, the acknowledged saves and the acknowledged cancels', () => {
    const created = [
      app({ saves: [{ value: 'a', acked: true }, { value: 'b', acked: false }] }),
      app({ cancel: { acked: true } }),
      app({ cancel: { acked: false } }),
    ];
    expect(acknowledged(created)).toEqual({ create: 3, save: 1, cancel: 1 });
  });
});
