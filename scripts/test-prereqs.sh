#!/usr/bin/env bash
# First step of `npm test`: gets what the suites need (Debian packages when it may install them, asking first at a
# terminal outside CI; the VS Code host; the agent CLIs) or stops at once with one line naming the command to run.
# A second run only checks (~1 s).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
stop() { echo "npm test: $*" >&2; exit 1; }

major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" = 20 ] || stop "needs Node 20 (the VS Code 1.100 test host runs on it), this is $(node -v); install Node 20 and run: npm test"

# Debian packages: Chromium (webview and VS Code tests), ripgrep and a C++ toolchain (the VS Code server's modules).
mapfile -t packages < <(grep -v '^#' "$repo/scripts/vscode-host/apt-packages.txt")
command -v dpkg >/dev/null && command -v apt-get >/dev/null || stop "needs Debian's packages (${packages[*]}) and apt-get to install them; this machine has no apt-get"
absent=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || absent+=("$p"); done
if [ ${#absent[@]} -gt 0 ]; then
  install=(apt-get install -y --no-install-recommends "${absent[@]}")
  [ "$(id -u)" = 0 ] || stop "needs Debian packages ${absent[*]}; run: sudo apt-get update && sudo ${install[*]}"
  # At a terminal (and not CI) the person says yes first; CI and runs without a terminal go ahead as before.
  source "$repo/scripts/lib/ask-install.sh"
  if [ -t 0 ] && [ -t 2 ]; then
    echo "npm test: working out the download size of ${absent[*]}…" >&2
    size=$(timeout 120 bash -c 'source "$1"; shift; apt_download_mb "$@"' _ "$repo/scripts/lib/ask-install.sh" "${absent[@]}" || true)
  fi
  ask_install "Debian packages ${absent[*]} (${size:+about $size MB to download, }a few hundred MB on disk with Chromium)" ||
    stop "nothing installed; install them yourself: apt-get update && ${install[*]} (or run CI=true npm test to install without asking)"
  echo "npm test: installing Debian packages ${absent[*]}"
  log="${TMPDIR:-/tmp}/context-compactor-apt.log"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${install[@]}" -qq; } >"$log" 2>&1 ||
    stop "apt-get could not install ${absent[*]} (log: $log); run: apt-get update && ${install[*]}"
fi

# The VS Code the integration tests run in, and the real agent CLIs the resume tests drive (npm registry only).
bash "$repo/scripts/setup-vscode-host.sh" || stop "the VS Code test host did not install (see above); run: bash scripts/setup-vscode-host.sh"
bash "$repo/scripts/install-agents.sh" || stop "the agent CLIs did not install (see above); run: bash scripts/install-agents.sh"
for cli in gemini qwen copilot continue; do bash "$repo/scripts/install-npm-cli.sh" "$cli" >/dev/null || stop "the $cli CLI did not install (see above); run: bash scripts/install-npm-cli.sh $cli"; done
for cli in goose droid kilo; do bash "$repo/scripts/install-platform-cli.sh" "$cli" >/dev/null || stop "the $cli CLI did not install (see above); run: bash scripts/install-platform-cli.sh $cli"; done
echo "npm test: prerequisites ready"
