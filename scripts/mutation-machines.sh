#!/usr/bin/env bash
# Mutation score of src/machines, one machine at a time (stryker.area.config.mjs `machine:<name>`),
# each against its own tests: its path and view tests, the unit tests named after it and the
# machines' actor tests. A mutant another test file would kill counts as survived, so the sum is a
# lower bound; each run takes minutes where the whole area takes hours on two cores.
# Usage: scripts/mutation-machines.sh [name ...]  (default: every machine but the list's, whose
# 1,200 path tests make it an area of its own: STRYKER_AREA=machines-list).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then
  set -- $(ls src/machines/*.machine.ts | xargs -n1 basename | sed 's/\.machine\.ts$//' | grep -v '^application-list$')
fi
for name in "$@"; do
  tests="tests/machines/${name}.*.test.ts,tests/machines/${name}.*.test.tsx,tests/unit/machine-actors.test.ts"
  for unit in tests/unit/*"${name}"*.test.ts tests/unit/*"${name}"*.test.tsx; do
    [ -e "$unit" ] && tests="${tests},${unit}"
  done
  echo "== ${name}: ${tests}"
  STRYKER_AREA="machine:${name}" MUTATION_SERVER=0 MUTATION_TESTS="$tests" \
    npx stryker run stryker.area.config.mjs --reporters json,progress --logLevel warn
done
node scripts/mutation-score.mjs $(for name in "$@"; do echo "reports/mutation-machine-${name}/mutation.json"; done)
