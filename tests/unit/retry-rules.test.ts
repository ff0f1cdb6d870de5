import { describe, expect, it } from 'vitest';
import { isTransientStatus, isTransientStepError } from '../../src/domain/retry.ts';

describe('which failures may pass on retry (issue 32)', () => {
  it.each([
    [0, false],
    [1001, false],
    [1002, false],
    [404, false],
    [1499, false],
    [1500, true],
    [1504, true],
    [1599, true],
    [1600, false],
    [-1, false],
  ])('API step ErrorNo %i: %s', (errorNo, transient) => expect(isTransientStepError(errorNo)).toBe(transient));

  it.each([
    [undefined, true],
    [400, false],
    [403, false],
    [409, false],
    [499, false],
    [500, true],
    [503, true],
  ])('HTTP status %s: %s', (status, transient) => expect(isTransientStatus(status)).toBe(transient));
});
