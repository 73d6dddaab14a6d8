#!/usr/bin/env bash
# Installs the VS Code the integration tests run in, offline-capable: VS Code 1.100.3's server + web workbench from
# the npm package code-server@4.100.3 (pinned by scripts/vscode-host/package-lock.json), plus Debian's Chromium.
# Idempotent: a second run only checks. Host dir: $VSCODE_TEST_HOST, default .vscode-test/host in the repo.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
spec="$repo/scripts/vscode-host"
host=$(realpath -m "${VSCODE_TEST_HOST:-$repo/.vscode-test/host}")
vscode="$host/node_modules/code-server/lib/vscode"

# Native modules the VS Code server loads; node-gyp builds them in code-server's postinstall.
native=(node_modules/@vscode/spdlog/build/Release/spdlog.node node_modules/node-pty/build/Release/pty.node
  node_modules/native-watchdog/build/Release/watchdog.node node_modules/kerberos/build/Release/kerberos.node
  node_modules/@vscode/ripgrep/bin/rg node_modules.asar)
mapfile -t packages < <(grep -v '^#' "$spec/apt-packages.txt")

stamp_of() { cat "$spec/package.json" "$spec/package-lock.json" | sha256sum | cut -d' ' -f1; }
missing_native() { local f; for f in "${native[@]}"; do [ -e "$vscode/$f" ] || echo "$f"; done; }

if [ "$(cat "$host/.stamp" 2>/dev/null)" = "$(stamp_of)" ] && [ -z "$(missing_native)" ] && [ -x /usr/bin/chromium ]; then
  echo "setup-vscode-host: ready in $host"
  exit 0
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" = 20 ] || { echo "setup-vscode-host: code-server 4.100.x needs Node 20, this is $(node -v)" >&2; exit 1; }
[ "$(uname -m)" = x86_64 ] || { echo "setup-vscode-host: only x86_64 is set up (ripgrep seeding below)" >&2; exit 1; }

absent=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || absent+=("$p"); done
if [ ${#absent[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || { echo "setup-vscode-host: please install: ${absent[*]}" >&2; exit 1; }
  echo "setup-vscode-host: apt-get install ${absent[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${absent[@]}" >/dev/null
fi

# @vscode/ripgrep's postinstall downloads rg from GitHub unless its download cache already holds the archive:
# put Debian's rg there under the name it looks for.
tmp=$(node -p 'require("os").tmpdir()')
cache="$tmp/vscode-ripgrep-cache-1.15.11"
archive="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
if [ ! -f "$archive" ]; then
  mkdir -p "$cache"
  t=$(mktemp -d); cp "$(command -v rg)" "$t/rg"; tar czf "$archive" -C "$t" rg; rm -rf "$t"
fi

mkdir -p "$host"
cp "$spec/package.json" "$spec/package-lock.json" "$host/"
echo "setup-vscode-host: installing code-server@4.100.3 into $host (about a minute)"
# allowScripts in package.json lets code-server's postinstall run; it runs `npm install` in lib/vscode, whose native
# modules build with node-gyp. unsafe_perm: the postinstall refuses to run as root without it. yes: node-pty's
# postinstall calls `npx node-gyp`, which would wait for a confirmation. nodedir: use the installed Node headers
# instead of downloading them (only the npm registry is reachable).
nodedir=()
[ -f /usr/include/node/node.h ] && nodedir=(npm_config_nodedir=/usr)
(cd "$host" && env npm_config_yes=true npm_config_unsafe_perm=true "${nodedir[@]}" \
  npm ci --no-audit --no-fund --loglevel=error >"$host/install.log" 2>&1) || {
  tail -40 "$host/install.log" >&2; echo "setup-vscode-host: npm ci failed (log: $host/install.log)" >&2; exit 1; }

gone=$(missing_native)
if [ -n "$gone" ]; then
  echo "setup-vscode-host: install finished without these (were install scripts skipped? see npm install-scripts ls):" >&2
  echo "$gone" >&2
  exit 1
fi
stamp_of >"$host/.stamp"
echo "setup-vscode-host: installed in $host"
