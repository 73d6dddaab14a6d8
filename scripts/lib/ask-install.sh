# Sourced by scripts/test-prereqs.sh: asks before it installs system packages when a person runs it at a terminal.
# CI (CI set to anything but empty/0/false) and runs without a terminal (pipes, cron, .ci/run) go ahead unasked.

# Roughly how many MB apt-get would download for packages "$@" and what they pull in ("" when apt cannot tell yet,
# e.g. before the first `apt-get update`).
apt_download_mb() {
  local pulled
  pulled=$(apt-get -s -qq install --no-install-recommends "$@" 2>/dev/null | awk '/^Inst /{print $2}') || return 0
  [ -n "$pulled" ] || return 0
  # shellcheck disable=SC2086 # one package name per word
  apt-cache show --no-all-versions $pulled 2>/dev/null | awk '/^Size:/{s+=$2} END{if (s > 0) printf "%d", (s + 999999) / 1e6}'
}

# ask_install WHAT: 0 to install, 1 when the person at the terminal said no (or nothing). WHAT names the packages and
# the size, e.g. "Debian packages chromium g++ (about 250 MB to download)".
ask_install() {
  case "${CI:-}" in '' | 0 | false | FALSE | False) ;; *) return 0 ;; esac
  [ -t 0 ] && [ -t 2 ] || return 0
  local answer=''
  printf 'npm test needs %s.\n' "$1" >&2
  read -r -p 'Install them now with apt-get, as root? [y/N] ' answer || answer=''
  case "$answer" in [yY] | [yY][eE][sS]) return 0 ;; *) return 1 ;; esac
}
