import { describe, expect, it } from 'vitest';
import { compareRounds, median } from '../../bench/round-comparison.ts';

describe('median', () => {
  it('is the middle value of an odd count, whatever the order', () => {
    expect(median([30, 10, 20])).toBe(20);
  });

  it('is the mean of the middle two of an even count', () => {
    expect(median([40, 10, 30, 20])).toBe(25);
  });

  it('is NaN for no values and leaves its input as it was', () => {
    expect(median([])).toBeNaN();
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('compareRounds', () => {
  it('compares the medians, so one round caught by a burst on either side moves neither', () => {
    // The second round without ran during a neighbour's burst, and so did the last round with.
    const result = compareRounds([20, 80, 22, 21], [21, 22, 90]);
    expect(result.without).toBe(21.5);
    expect(result.with).toBe(22);
    expect(result.slowdown).toBeCloseTo(22 / 21.5 - 1, 10);
  });

  it('reports a slowdown when the rounds with are slower throughout', () => {
    const result = compareRounds([20, 20, 20], [24, 26]);
    expect(result.slowdown).toBeCloseTo(0.25, 10);
  });

  it('compares each round with against the mean of the two rounds without around it', () => {
    expect(compareRounds([10, 30, 20], [22, 30]).bracketed).toEqual([22 / 20 - 1, 30 / 25 - 1]);
  });

  it('refuses rounds that were not interleaved (one more without than with)', () => {
    expect(() => compareRounds([20, 20], [20, 20])).toThrow(/one more/);
  });
});
