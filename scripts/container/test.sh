#!/usr/bin/env bash
# The container test (docs/deployment.md#testing-the-image): builds the Containerfile on a base
# image made here (no image registry is reachable from CI machines), then runs the image as a
# self-hoster would:
#   1. embedded database on a volume: starts, the HEALTHCHECK passes, the first admin
#      (ADMIN_EMAIL/ADMIN_PASSWORD) signs in and books a desk;
#   2. stopped with SIGTERM: exit code 0, the embedded PostgreSQL shut down cleanly (its control
#      file says so), nothing left for the next start to clean up; restarted on the same volume:
#      the booking is still there;
#   3. killed (SIGKILL) and started again: PostgreSQL recovers, the booking is there, and a
#      SIGTERM then stops it cleanly;
#   4. a backup of the volume (taken after step 1, as docs/deployment.md says) restored into a
#      new volume: the booking is there;
#   5. once more with DATABASE_URL naming a fresh database on the test PostgreSQL server (the
#      volume stays empty).
# Fails if the image is larger than 350 MB. Containers, the volume and the database are removed
# at the end, whatever happened; the base image is kept (scripts/container/base-image.sh).
#
#   scripts/container/test.sh
#
# Needs root (podman and debootstrap), Node with the project's dev dependencies installed
# (`npm ci`: the HTTP steps run scripts/container/smoke.ts with tsx), and a PostgreSQL server at
# TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; .ci/run sets it).
# Installs Debian's podman, runc and debootstrap packages when they are missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS
phase() { echo "== [$((SECONDS - started)) s] $*"; }

if [[ $(id -u) -ne 0 ]]; then
  echo "scripts/container/test.sh needs root (podman, debootstrap)" >&2
  exit 1
fi
missing=()
command -v podman >/dev/null 2>&1 || missing+=(podman)
command -v runc >/dev/null 2>&1 || missing+=(runc)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
if ((${#missing[@]} > 0)); then
  phase "installing ${missing[*]} (Debian packages)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
export CONTAINERS_CONF=$PWD/scripts/container/containers.conf

admin_url=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
run_id="$(date +%s)-$$"
name="deskbook-ci-$run_id"
image="localhost/deskbook:ci"
volume="$name-data"
restored="$name-restored"
database="deskbook_container_${run_id//-/_}"
email=admin@example.org
password="container-test-$run_id"
smoke() { npx --no-install tsx scripts/container/smoke.ts "$@"; }
containers=()
database_created=
work=

cleanup() {
  local status=$?
  for container in "${containers[@]}"; do
    if [[ $status -ne 0 ]] && podman container exists "$container"; then
      echo "== logs of $container:" >&2
      podman logs "$container" 2>&1 | tail -n 60 >&2 || true
    fi
    podman rm --force --volumes --time 5 "$container" >/dev/null 2>&1 || true
  done
  podman volume rm --force "$volume" "$restored" >/dev/null 2>&1 || true
  rm -rf "${work:-}"
  # Build layers nothing refers to any more, once a day old (recent ones are the build cache).
  podman image prune --force --filter until=24h >/dev/null 2>&1 || true
  [[ -z $database_created ]] || smoke dropdb "$admin_url" "$database" || true
  exit "$status"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

free_port() { node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }

# Runs the image detached; podman's own health-check timers need systemd, which CI machines lack:
# the test runs the HEALTHCHECK itself (`podman healthcheck run`).
start() { # container, podman run options...
  local container=$1
  shift
  containers+=("$container")
  podman run --detach --name "$container" --stop-timeout 30 \
    -e ADMIN_EMAIL="$email" -e ADMIN_PASSWORD="$password" -e LOG_LEVEL=info -e REQUEST_LOG=false \
    "$@" "$image" >/dev/null 2>"$work/podman-run.err" || {
    cat "$work/podman-run.err" >&2
    return 1
  }
}

# SIGTERM, then the exit code must be 0 (docs/deployment.md#rolling-restarts).
stop() { # container
  podman stop --time 30 "$1" >/dev/null 2>"$work/podman-stop.err" || {
    cat "$work/podman-stop.err" >&2
    return 1
  }
  local code
  code=$(podman inspect --format '{{.State.ExitCode}}' "$1")
  if [[ $code != 0 ]]; then
    echo "container $1 exited with $code on SIGTERM" >&2
    return 1
  fi
  local log
  log=$(podman logs "$1" 2>&1)
  grep -q '"msg":"stopped"' <<<"$log" || {
    echo "container $1 did not log that it stopped cleanly" >&2
    return 1
  }
  if grep -E '"level":(50|60)' <<<"$log"; then
    echo "container $1 logged errors" >&2
    return 1
  fi
}

healthy() { # container
  podman healthcheck run "$1" >/dev/null 2>&1 || {
    echo "the image's HEALTHCHECK failed in $1" >&2
    return 1
  }
}

# The embedded database after a stop (docs/deployment.md#testing-the-image): PostgreSQL marks
# its control file "shut down" (state 1 at byte 16 of global/pg_control; a crash leaves
# "in production", 6) and removes postmaster.pid only when it shut down cleanly.
clean_shutdown() { # container
  local state
  state=$(podman run --rm --network none --no-healthcheck -v "$volume:/data" --entrypoint node "$image" -e '
    const fs = require("fs");
    const data = "/data/postgres/data";
    const state = fs.readFileSync(data + "/global/pg_control").readInt32LE(16);
    console.log(fs.existsSync(data + "/postmaster.pid") ? "postmaster.pid left, state " + state : "state " + state);')
  if [[ $state != "state 1" ]]; then
    echo "the embedded PostgreSQL of $1 was not shut down cleanly: $state" >&2
    return 1
  fi
}

# A start that found a postmaster or a lock left behind says so (src/db/embedded-postgres.ts).
fresh_start() { # container
  local log
  log=$(podman logs "$1" 2>&1)
  if grep -E 'left running|stale postmaster.pid|stale lock' <<<"$log"; then
    echo "$1 found leftovers of the previous container, which had stopped cleanly" >&2
    return 1
  fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/deskbook-container.XXXXXX")

phase "base image"
base=$(scripts/container/base-image.sh)
phase "building the Containerfile on $base"
# The build stage reaches the npm registry from the host's network, with the host's npm cache.
npm_cache=$(npm config get cache)
podman build --quiet --format docker --network host --volume "$npm_cache:/root/.npm" \
  --build-arg BASE_IMAGE="$base" --tag "$image" --file Containerfile . >/dev/null
size=$(podman image inspect --format '{{.Size}}' "$image")
phase "image $image: $((size / 1000000)) MB"
if ((size > 350000000)); then
  echo "the image is $((size / 1000000)) MB, more than 350 MB" >&2
  exit 1
fi
# The build stage's `npm ci` ran the root postinstall: the driver's queue is patched
# (docs/architecture.md#node-and-dependencies).
podman run --rm --network none --no-healthcheck --entrypoint node "$image" --input-type=module -e '
  const unpatched = (await import("./dist/db/postgres-patch.js")).unpatchedDriverQueues();
  if (unpatched.length > 0) { console.error("unpatched in the image:", unpatched); process.exit(1); }'
user=$(podman image inspect --format '{{.Config.User}}' "$image")
if [[ -z $user || $user == root || $user == 0 ]]; then
  echo "the image runs as root" >&2
  exit 1
fi

phase "1. embedded database on volume $volume"
podman volume create "$volume" >/dev/null
port=$(free_port)
base_url="http://127.0.0.1:$port"
start "$name-1" -p "127.0.0.1:$port:8080" -v "$volume:/data"
smoke wait-ready "$base_url" "$name-1" 120
healthy "$name-1"
booked=$(smoke book "$base_url" "$email" "$password")
desk_id=$(node -p 'JSON.parse(process.argv[1]).deskId' "$booked")
reservation_id=$(node -p 'JSON.parse(process.argv[1]).reservationId' "$booked")
echo "booked desk $desk_id: reservation $reservation_id"
# (Outputs are captured before grep -q: with pipefail, a writer cut off by grep's early exit fails.)
processes=$(podman top "$name-1" user comm)
if awk 'NR > 1 && $1 == "root"' <<<"$processes" | grep -q .; then
  echo "a process in $name-1 runs as root:" >&2
  podman top "$name-1" user pid comm >&2
  exit 1
fi
awk 'NR > 1 { print $2 }' <<<"$processes" | grep -qx postgres || {
  echo "no embedded PostgreSQL runs in $name-1" >&2
  exit 1
}
stop "$name-1"
clean_shutdown "$name-1"
fresh_start "$name-1"
# A backup of the stopped container's volume, as docs/deployment.md#the-containers-volume says.
podman run --rm --network none --no-healthcheck --user root -v "$volume:/data:ro" -v "$work:/backup" --entrypoint tar "$image" \
  -czf /backup/deskbook-data.tgz -C /data .

phase "2. restarted on the same volume"
start "$name-2" -p "127.0.0.1:$port:8080" -v "$volume:/data"
smoke wait-ready "$base_url" "$name-2" 120
fresh_start "$name-2"
smoke check "$base_url" "$email" "$password" "$reservation_id" "$desk_id"

phase "3. killed (SIGKILL), started again: PostgreSQL recovers, then a clean stop"
podman kill --signal KILL "$name-2" >/dev/null
podman wait "$name-2" >/dev/null 2>&1 || true
start "$name-3" -p "127.0.0.1:$port:8080" -v "$volume:/data"
smoke wait-ready "$base_url" "$name-3" 120
# Every process of the killed container died with it: the start finds its postmaster.pid naming
# no PostgreSQL and removes it (docs/deployment.md#the-embedded-postgresql).
podman logs "$name-3" 2>&1 | grep -c 'removing a stale postmaster.pid' >/dev/null || {
  echo "$name-3 did not say it found the killed container's postmaster.pid" >&2
  exit 1
}
smoke check "$base_url" "$email" "$password" "$reservation_id" "$desk_id"
stop "$name-3"
clean_shutdown "$name-3"

phase "4. the backup restored into a new volume"
podman volume create "$restored" >/dev/null
podman run --rm --network none --no-healthcheck --user root -v "$restored:/data" -v "$work:/backup:ro" --entrypoint sh "$image" \
  -c 'tar -xzf /backup/deskbook-data.tgz -C /data && chown -R 10001:10001 /data'
start "$name-5" -p "127.0.0.1:$port:8080" -v "$restored:/data"
smoke wait-ready "$base_url" "$name-5" 120
fresh_start "$name-5"
smoke check "$base_url" "$email" "$password" "$reservation_id" "$desk_id"
stop "$name-5"

phase "5. DATABASE_URL: a fresh database on the test PostgreSQL"
database_url=$(smoke createdb "$admin_url" "$database")
database_created=1
port=$(free_port)
base_url="http://127.0.0.1:$port"
# The host network, to reach the test server on the host's loopback; listen there only.
start "$name-4" --network host -e HOST=127.0.0.1 -e PORT="$port" -e DATABASE_URL="$database_url"
smoke wait-ready "$base_url" "$name-4" 120
healthy "$name-4"
booked=$(smoke book "$base_url" "$email" "$password")
smoke check "$base_url" "$email" "$password" "$(node -p 'JSON.parse(process.argv[1]).reservationId' "$booked")" \
  "$(node -p 'JSON.parse(process.argv[1]).deskId' "$booked")"
if [[ -n $(podman exec "$name-4" ls -A /data) ]]; then
  echo "with DATABASE_URL set, $name-4 still wrote to /data:" >&2
  podman exec "$name-4" ls -la /data >&2
  exit 1
fi
stop "$name-4"

phase "container test passed (image $((size / 1000000)) MB)"
