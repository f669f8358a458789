#!/usr/bin/env bash
# `npm test` (docs/testing.md#how-long-it-takes): the type check and the lint run beside the
# vitest suite rather than before it. The suite mostly waits on PostgreSQL and processes, so the
# two checks use cores it leaves idle; their output is shown after the suite, and the command fails
# when any of the three failed. Extra arguments go to vitest.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d "${TMPDIR:-/tmp}/deskbook-checks.XXXXXX")
trap 'rm -rf "$out"' EXIT

npm run typecheck --silent >"$out/typecheck" 2>&1 &
typecheck=$!
npm run lint --silent >"$out/lint" 2>&1 &
lint=$!
npx vitest run "$@"
suite=$?
wait "$typecheck"
typecheck_status=$?
wait "$lint"
lint_status=$?

for check in typecheck lint; do
  status_var="${check}_status"
  if [[ ${!status_var} -ne 0 ]]; then
    echo "== npm run $check failed:"
    cat "$out/$check"
  fi
done
echo "== typecheck: exit $typecheck_status, lint: exit $lint_status, vitest: exit $suite"
((suite == 0 && typecheck_status == 0 && lint_status == 0))
