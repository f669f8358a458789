#!/usr/bin/env bash
# Installs Node.js 24 LTS from the npm registry's `node-linux-<arch>` package (it ships the node
# binary inside the package, so nothing is downloaded from anywhere but the npm registry) into
# .node/ at the project root (ignored by git), and prints the line that puts it first on PATH:
#
#   eval "$(scripts/node24.sh)"    # this shell now runs node 24 (and npm on it)
#
# Idempotent: when .node/bin/node already is the pinned version it only prints the line. Messages
# go to stderr, so stdout is only that line. npm itself is the machine's (any npm 10 or 11 works);
# it is a JavaScript program started through `#!/usr/bin/env node`, so with .node/bin first on
# PATH npm, its scripts and every child process they start run on node 24 (docs/architecture.md#node-and-dependencies).
set -euo pipefail

NODE_VERSION=24.21.0
# Integrity of the registry tarball per platform (`npm view node-linux-<arch>@<version> dist.integrity`),
# checked again here so a changed tarball is refused even if the registry's metadata changed with it.
declare -A INTEGRITY=(
  [linux-x64]=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==
  [linux-arm64]=sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==
)

root=$(cd "$(dirname "$0")/.." && pwd)
target=${NODE24_DIR:-$root/.node}

say() { echo "node24.sh: $*" >&2; }

if [[ -x $target/bin/node ]] && [[ $("$target/bin/node" --version 2>/dev/null) == "v$NODE_VERSION" ]]; then
  say "node v$NODE_VERSION is already in $target"
else
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) platform=linux-x64 ;;
    Linux-aarch64 | Linux-arm64) platform=linux-arm64 ;;
    *)
      say "no pinned node package for $(uname -s) $(uname -m): install Node.js 24 LTS another way (https://nodejs.org)"
      exit 1
      ;;
  esac
  command -v npm >/dev/null || { say "npm is needed to fetch node-$platform from the npm registry"; exit 1; }
  package="node-$platform@$NODE_VERSION"
  work=$(mktemp -d "${TMPDIR:-/tmp}/deskbook-node24.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  say "fetching $package from the npm registry"
  (cd "$work" && npm pack "$package" --silent --no-fund --no-audit >/dev/null)
  tarball=$(ls "$work"/node-"$platform"-"$NODE_VERSION".tgz)
  actual=$(node -e 'process.stdout.write("sha512-" + require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tarball")
  if [[ $actual != "${INTEGRITY[$platform]}" ]]; then
    say "integrity mismatch for $package: expected ${INTEGRITY[$platform]}, got $actual"
    exit 1
  fi
  tar -xzf "$tarball" -C "$work" package/bin/node package/LICENSE
  mkdir -p "$target/bin"
  # Replace in one rename, so a half-written binary is never on PATH.
  cp "$work/package/bin/node" "$target/bin/node.partial"
  chmod 755 "$target/bin/node.partial"
  mv -f "$target/bin/node.partial" "$target/bin/node"
  cp "$work/package/LICENSE" "$target/LICENSE"
  installed=$("$target/bin/node" --version)
  [[ $installed == "v$NODE_VERSION" ]] || { say "the installed node answers $installed, not v$NODE_VERSION"; exit 1; }
  say "installed node $installed into $target"
fi

# npm takes its global config from <node's prefix>/etc/npmrc, so once this node comes first on PATH
# the machine's global npmrc (a registry mirror, a cafile for a proxy's certificate) would be
# ignored; point ours at it (docs/architecture.md#node-and-dependencies).
machine_npmrc=$(npm config get globalconfig 2>/dev/null || true)
if [[ -n $machine_npmrc && $machine_npmrc != "$target"/* && -f $machine_npmrc && ! -e $target/etc/npmrc ]]; then
  mkdir -p "$target/etc"
  ln -s "$machine_npmrc" "$target/etc/npmrc"
  say "npm on this node reads the machine's global npmrc ($machine_npmrc)"
fi

printf 'export PATH="%s/bin:$PATH"\n' "$target"
