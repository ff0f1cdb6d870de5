/**
 * Comparing a figure measured with and without something on a shared machine, whose load drifts
 * over minutes: the rounds are interleaved (without, with, without, …, without), and the medians
 * of each side's figures are compared, so one round caught by a neighbour's burst moves neither.
 */

/** The middle value, or the mean of the middle two for an even count; NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}

export interface RoundComparison {
  /** Median of the rounds without. */
  without: number;
  /** Median of the rounds with. */
  with: number;
  /** How much slower the median with is than the median without: 0.05 is 5 % slower, negative is faster. */
  slowdown: number;
  /** Each round with against the mean of the two rounds without around it (the same slowdown, per round). */
  bracketed: number[];
}

/**
 * `without` has one round more than `withIt`: round i with ran between rounds i and i + 1 without.
 */
export function compareRounds(without: readonly number[], withIt: readonly number[]): RoundComparison {
  if (without.length !== withIt.length + 1) throw new Error(`interleaved rounds: ${without.length} without for ${withIt.length} with, expected one more`);
  const medianWithout = median(without);
  const medianWith = median(withIt);
  return {
    without: medianWithout,
    with: medianWith,
    slowdown: medianWith / medianWithout - 1,
    bracketed: withIt.map((value, index) => value / (((without[index] ?? Number.NaN) + (without[index + 1] ?? Number.NaN)) / 2) - 1),
  };
}
