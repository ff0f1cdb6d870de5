/**
 * Words that compliance and workflow codes are built from. A code written in one run of capitals
 * ('DUPLICATEAPPLICATION') has no case or separator to split on; it is split into these words when
 * it can be wholly (issue 32), and shown as one word when it cannot.
 */
const vocabulary = new Set(
  `account accounts active address addresses adverse age aml applicant applicants application applications
  approval approved bank birth blocked business california card check company contact country
  date death deceased declined detail details device director document documents domain duplicate
  email expired failed foreign fraud high id identity income invalid ip kyc licence license
  limit low match media medium mismatch missing mobile name names not number occupation
  passport pending pep phone po politically postal proof record records resident residency
  review risk sanction sanctions source suspicious tax tfn trust underage unverified
  user verification verified vpn wealth watchlist`.split(/\s+/),
);
const longest = Math.max(...[...vocabulary].map((word) => word.length));

/**
 * The words of `run` (lower case, letters only), or undefined when it is not made wholly of the
 * vocabulary. Fewest words win, so 'bankaccount' is 'bank account', never shorter pieces.
 */
export function splitIntoWords(run: string): string[] | undefined {
  const text = run.toLowerCase();
  // best[i]: the fewest words covering text[0, i), or undefined.
  const best: (string[] | undefined)[] = [[]];
  for (let end = 1; end <= text.length; end++) {
    for (let start = Math.max(0, end - longest); start < end; start++) {
      const before = best[start];
      const word = text.slice(start, end);
      if (!before || !vocabulary.has(word)) continue;
      const current = best[end];
      if (!current || before.length + 1 < current.length) best[end] = [...before, word];
    }
  }
  return text.length > 0 ? best[text.length] : undefined;
}
