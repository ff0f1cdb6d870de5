#!/usr/bin/env bash
# Mutation score of the server's route modules, one module at a time (stryker.area.config.mjs
# `route:<name>`), each against the server tests of its routes (the list below). A mutant another
# test file would kill counts as survived, so the sum is a lower bound; each run takes minutes where
# the whole server area takes hours on two cores.
# `auth` is the claim module, server/api/auth.ts (area server-auth), against the tests of the bearer check.
# Usage: scripts/mutation-routes.sh [name ...]  (default: every module in the list).
set -euo pipefail
cd "$(dirname "$0")/.."

# The server tests that send each module's requests (grep the module's paths in tests/server).
declare -A tests=(
  [health]='hardening,health'
  [monitoring]='monitoring'
  [reports]='reports'
  [lookups]='lookups'
  [api-steps]='api-steps'
  [account]='foundation-routes,identity,access-control,password-rules'
  [admin]='admin'
  [identity-verification]='identity-verification'
  [bulk-upload]='bulk-upload'
  [outbox]='outbox'
  [configuration]='configuration,favicon'
  [application-messages]='application-messages,outbox'
  [application-detail]='application-detail,depersonalise,access-control'
  [documents]='document-storage,application-detail,depersonalise,document-files'
  [applications]='applications-actions,applications-list,applications-export,export-claims,export-link,application-form'
  [application-actions]='application-actions,depersonalise'
  [auth]='access-control,foundation-routes,export-claims'
)
# The modules whose routes decide most (claims per action) first, so that a run cut short has them.
order=(application-actions applications documents application-messages admin configuration identity-verification
  bulk-upload reports lookups account api-steps monitoring health outbox application-detail auth)

area() { [ "$1" = auth ] && echo server-auth || echo "route:$1"; }

[ "$#" -eq 0 ] && set -- "${order[@]}"
for name in "$@"; do
  files=$(echo "${tests[$name]}" | tr ',' '\n' | sed 's#.*#tests/server/&.test.ts#' | paste -sd, -)
  echo "== ${name}: ${files}"
  STRYKER_AREA="$(area "$name")" MUTATION_TESTS="$files" \
    npx stryker run stryker.area.config.mjs --reporters json,progress --logLevel warn </dev/null
done
node scripts/mutation-score.mjs $(for name in "$@"; do echo "reports/mutation-$(area "$name" | tr : -)/mutation.json"; done)
