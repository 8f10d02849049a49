#!/usr/bin/env bash
# `npm test [-- <jest args>]`: works on a fresh machine.
#   1. node dependencies (npm ci) when node_modules is missing
#   2. build (npm run build; FEDPOD_TEST_SKIP_BUILD=1 skips it), then lint (the layers rule included)
#   3. Debian packages for the integration tests (scripts/ensure-test-deps.sh)
#   4. jest with the given arguments, e.g. `npm test -- test/unit`
# Exit code: jest's (or the failing step's).
set -uo pipefail
cd "$(dirname "$0")/.."

began=$SECONDS
step() { echo "[npm test] $* (+$((SECONDS - began)) s)"; }

install_node_deps() {
  local log=/tmp/fedpod-npm-ci.$$.log
  if npm ci --no-audit --no-fund --loglevel=error >"$log" 2>&1; then
    rm -f "$log"
    return 0
  fi
  # A fallback only: npm ci fails when the lock and the registry disagree (a
  # mirror without some locked version); npm install resolves what it can.
  echo "[npm test] npm ci failed ($(grep -m1 -E 'npm error (code|Missing)' "$log" || echo 'see below')); trying npm install" >&2
  if npm install --no-audit --no-fund --loglevel=error; then
    rm -f "$log"
    return 0
  fi
  cat "$log" >&2
  rm -f "$log"
  return 1
}

if [[ ! -x node_modules/.bin/jest ]]; then
  step "installing node dependencies: npm ci"
  # Same lock the team uses for npm installs in this shared work tree.
  exec 9>/tmp/fedpod-npm.lock
  flock 9
  install_node_deps || {
    echo "[npm test] installing node dependencies failed" >&2
    exit 1
  }
  exec 9>&-
fi

if [[ ${FEDPOD_TEST_SKIP_BUILD:-} != 1 ]]; then
  step "building: npm run build"
  # Serialized: concurrent builds in one work tree would write dist/ together.
  # The tests' own setups (test/fixtures/config/) are compiled too, as the named ones are: the
  # servers the tests start then come up in about a second instead of reading their configs.
  flock /tmp/fedpod-build.lock bash -c 'npm run --silent build && node scripts/compile-configs.js test/fixtures/config/*.json' || {
    rc=$?
    echo "[npm test] build failed (FEDPOD_TEST_SKIP_BUILD=1 runs tests without building)" >&2
    exit "$rc"
  }
fi

step "lint: npm run lint (ESLint, the layers rule included)"
npm run --silent lint || {
  rc=$?
  echo "[npm test] lint failed" >&2
  exit "$rc"
}

step "checking the test packages (Virtuoso, Redis, Java and Maven for Fuseki, Chromium)"
if ! bash scripts/ensure-test-deps.sh; then
  # Unit tests need neither; integration tests will fail with a clear message.
  echo "[npm test] WARNING: test dependencies missing; integration tests will fail" >&2
fi

mkdir -p .test-tmp
results=$(mktemp .test-tmp/jest-results-XXXXXX.json)
trap 'rm -f "$results"' EXIT
step "running jest $*"
node_modules/.bin/jest --json --outputFile="$results" "$@"
rc=$?

# A plain closing line that tools reading test output understand.
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  // A test file that did not even load (syntax error) counts as a failure.
  const failed = r.numFailedTests + r.numRuntimeErrorTestSuites;
  console.log(`Tests: ${r.numPassedTests} passed, ${failed} failed, ${skipped} skipped`);
' "$results" 2>/dev/null || true
step "done, jest exit code $rc"
exit "$rc"
