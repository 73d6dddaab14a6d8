#!/usr/bin/env bash
# Installs one pinned real agent CLI shipped as a per-platform binary package on npm into .cache/agents, for test/resume
# and scripts/agentgen; a fast no-op when present. Usage: scripts/install-platform-cli.sh droid|kilo (prints the binary's
# path; tests also accept DROID_BIN / KILO_BIN)
#   droid: Factory Droid, @factory/cli-<platform> (the binary the @factory/cli shim runs)
#   kilo:  Kilo CLI, @kilocode/cli-<platform> (the binary @kilocode/cli runs)
# Pinned to the newest versions whose linux-x64 binary package the registry holds (December 2026: @factory/cli 0.225.1
# and @kilocode/cli 7.8.1 name platform packages the registry does not have).
set -euo pipefail
case "${1:-}" in
  droid) scope=@factory/cli; bin=droid; version=0.215.0 ;;
  kilo) scope=@kilocode/cli; bin=kilo; version=7.7.7 ;;
  *) echo "usage: install-platform-cli.sh droid|kilo" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.cache/agents"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  *) echo "install-platform-cli: no $bin binary package for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
path="$dir/node_modules/$scope-$platform/bin/$bin"

if ! "$path" --version 2>/dev/null | grep -qxF "$version"; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"context-compactor-agents","private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --save-exact "$scope-$platform@$version" >&2
  "$path" --version 2>/dev/null | grep -qxF "$version" || { echo "install-platform-cli: the installed $bin does not run ($path)" >&2; exit 1; }
fi
echo "$bin $version at $path"
