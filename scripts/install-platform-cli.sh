#!/usr/bin/env bash
# Installs one pinned real agent CLI shipped as a per-platform binary package on npm into .cache/agents, for test/resume
# and scripts/agentgen; a fast no-op when present. Usage: scripts/install-platform-cli.sh goose|droid|kilo (prints
# "<cli> <version> at <binary path>"; tests also accept GOOSE_BIN / DROID_BIN / KILO_BIN)
#   goose: Goose, @aaif/goose-binary-<platform> (the binary @aaif/goose-sdk ships; package 0.20.2 ships goose 1.37.0)
#   droid: Factory Droid, @factory/cli-<platform> (the binary the @factory/cli shim runs)
#   kilo:  Kilo CLI, @kilocode/cli-<platform> (the binary @kilocode/cli runs)
# Droid and Kilo are pinned to the newest versions whose linux-x64 binary package the registry holds (December 2026:
# @factory/cli 0.225.1 and @kilocode/cli 7.8.1 name platform packages the registry does not have).
set -euo pipefail
source "$(dirname "$0")/lib/pinned-npm.sh"
# package: the npm package before "-<platform>"; package_version: its version; version: what the binary's --version says.
case "${1:-}" in
  goose) package=@aaif/goose-binary; bin=goose; package_version=0.20.2; version=1.37.0 ;;
  droid) package=@factory/cli; bin=droid; package_version=0.215.0; version=0.215.0 ;;
  kilo) package=@kilocode/cli; bin=kilo; package_version=7.7.7; version=7.7.7 ;;
  *) echo "usage: install-platform-cli.sh goose|droid|kilo" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
platform=$(npm_platform) || { echo "install-platform-cli: no $bin binary package for this machine" >&2; exit 1; }
path="$root/.cache/agents/node_modules/$package-$platform/bin/$bin"
# Goose prints "1.37.0" with spaces around it; the others the bare version.
works() { "$path" --version 2>/dev/null | tr -d ' ' | grep -qxF "$version"; }
pinned_install "install-platform-cli $bin" "$root/.cache/agents" works : "$package-$platform@$package_version"
echo "$bin $version at $path"
