#!/usr/bin/env bash
# Every test: unit and API tests (PGlite, plus PostgreSQL when TEST_DATABASE_URL is set),
# then the end-to-end tests in Debian's Chromium against the built site.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
mkdir -p test-results

# The site runs on Node.js >= 24 (package.json engines): ./npmw provides it on older machines.
echo "== node $(node --version)"
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 24 ]; then
  echo "ERROR: Node.js $(node --version) is older than 24: run the tests with ./npmw test" >&2
  exit 1
fi

bash scripts/ensure-browser.sh || { echo "could not install chromium/fonts-noto-cjk"; exit 1; }
# nginx before the unit tests: the streamed search's test through nginx skips without it (the
# cluster's e2e tests would install it only later).
bash scripts/ensure-nginx.sh || { echo "could not install nginx"; exit 1; }
echo "== build (the e2e tests run the production build)"
npx react-router build >test-results/build.log 2>&1 || { cat test-results/build.log; exit 1; }
# The e2e tests' spawned sites run the built server (e2e/server-build.ts).
npx tsx scripts/build-server.ts >>test-results/build.log 2>&1 || { cat test-results/build.log; exit 1; }

status=0
echo "== unit and API tests${TEST_DATABASE_URL:+ (PGlite and PostgreSQL)}"
npx vitest run --project unit --project unit-alone --reporter=default --reporter=json --outputFile=test-results/unit.json || status=1
echo "== end-to-end tests (Chromium)"
# Two streams side by side, each one file at a time: the browser files, and the files that only
# start, kill and restart servers as child processes (mostly waiting on them). The second
# stream's output is shown when both are done.
npx vitest run --project e2e-processes --reporter=default --reporter=json --outputFile=test-results/e2e-processes.json >test-results/e2e-processes.log 2>&1 &
processes=$!
npx vitest run --project e2e --reporter=default --reporter=json --outputFile=test-results/e2e.json || status=1
wait $processes || status=1
echo "== end-to-end tests without a browser (ran beside the ones above)"
cat test-results/e2e-processes.log

node scripts/test-summary.mjs test-results/unit.json test-results/e2e.json test-results/e2e-processes.json || status=1
echo "test suite time: $(( $(date +%s) - start ))s"
exit $status
