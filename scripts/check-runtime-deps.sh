#!/usr/bin/env bash
# Builds the server and the web app, then runs the built output the way an operator would: in
# a directory holding only what the server reads at run time, with the production dependencies
# alone (`npm ci --omit=dev`). Fails when the built server needs a dev dependency (or a file
# that is not shipped) to start, serve /api/health or serve the web app at /.
#
#   scripts/check-runtime-deps.sh              build, then check
#   scripts/check-runtime-deps.sh --no-build   check the dist/ that is already there
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if [[ ${1:-} != --no-build ]]; then
  echo "== building the server and the web app"
  # Builds the server and the web app, each when its sources changed (a fresh clone: both).
  npm run build --silent
fi
[[ -f dist/server.js ]] || { echo "dist/server.js is missing: run npm run build" >&2; exit 1; }
[[ -f dist/web/index.html ]] || { echo "dist/web/index.html is missing: run npm run build:web" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/deskbook-runtime.XXXXXX")
# As root the embedded PostgreSQL runs as its own system user, which must pass through this folder
# to the copy's node_modules and DATA_DIR (docs/deployment.md#the-embedded-postgresql).
chmod 755 "$work"
server_pid=
cleanup() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# What the server reads at run time: package.json (ES modules; src/shared/paths.ts finds the
# project root by it), dist/ (the server and dist/web), migrations/ (run at start-up). Plus the
# lock file, and every npm workspace's package.json, which `npm ci` needs to match the lock, and
# patches/, which the install applies to dependencies (docs/upstream/postgres-queue.md).
app="$work/app"
mkdir -p "$app"
cp package.json package-lock.json "$app/"
cp -R patches "$app/"
cp -R dist migrations "$app/"
rm -f "$app/dist/.tsbuildinfo" "$app/dist/.server-source-hash"
while IFS= read -r pattern; do
  [[ -n $pattern ]] || continue
  for workspace in $pattern; do # a glob such as packages/* expands here
    if [[ -f $workspace/package.json ]]; then
      mkdir -p "$app/$workspace"
      cp "$workspace/package.json" "$app/$workspace/"
    fi
  done
done < <(node -e 'const w = require("./package.json").workspaces; for (const p of Array.isArray(w) ? w : (w?.packages ?? [])) console.log(p)')

echo "== npm ci --omit=dev in $app"
(cd "$app" && npm ci --omit=dev --no-audit --no-fund --prefer-offline --loglevel=error)
for tool in typescript vite vitest drizzle-kit; do
  if [[ -d $app/node_modules/$tool ]]; then echo "note: $tool is installed as a runtime dependency" >&2; fi
done

port=$(node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
echo "== starting node dist/server.js on 127.0.0.1:$port"
(
  cd "$app"
  exec env -u DATABASE_URL PORT="$port" HOST=127.0.0.1 DATA_DIR="$work/data" LOG_LEVEL=warn REQUEST_LOG=false \
    node --max-old-space-size=192 --max-semi-space-size=16 dist/server.js
) >"$work/server.log" 2>&1 &
server_pid=$!

# Health first (migrations ran, database answers), then the web app's page and one of its assets.
if ! node - "$port" "$server_pid" <<'EOF'
const [port, pid] = process.argv.slice(2).map(Number);
const base = `http://127.0.0.1:${port}`;
const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
const deadline = Date.now() + 60_000;
let health;
while (Date.now() < deadline && alive()) {
  health = await fetch(`${base}/api/health`).catch(() => undefined);
  if (health?.status === 200) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
}
if (health?.status !== 200) throw new Error(`GET /api/health did not answer 200 within 60 s (${health ? health.status : alive() ? 'no answer' : 'server exited'})`);
const page = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
const html = await page.text();
if (page.status !== 200 || !/<div id="root">/.test(html)) throw new Error(`GET / answered ${page.status}, not the web app`);
const asset = /(?:src|href)="(\/assets\/[^"]+)"/.exec(html)?.[1];
if (!asset) throw new Error('the web app page names no asset under /assets/');
const assetResponse = await fetch(base + asset);
if (assetResponse.status !== 200) throw new Error(`GET ${asset} answered ${assetResponse.status}`);
console.log(`GET /api/health 200, GET / 200, GET ${asset} 200`);
EOF
then
  echo "== the built server failed; its log:" >&2
  cat "$work/server.log" >&2
  exit 1
fi

# The production install applied patches/postgres+3.4.9.patch too (postinstall: patch-package is a
# runtime dependency): the server checks both copies of the driver's queue at start
# (src/db/postgres-patch.ts) and warns when one lacks it.
if grep -q 'patches/postgres' "$work/server.log"; then
  echo "== the built server runs an unpatched postgres.js; its log:" >&2
  cat "$work/server.log" >&2
  exit 1
fi

# It also stops cleanly (SIGTERM: exit 0).
kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=
if [[ $status -ne 0 ]]; then
  echo "== the built server exited with $status on SIGTERM; its log:" >&2
  cat "$work/server.log" >&2
  exit 1
fi
echo "== the built output runs with runtime dependencies only"
