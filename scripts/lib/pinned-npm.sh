# Sourced by the scripts/install-*.sh: the one way a pinned agent CLI gets into a cache folder from the npm registry.
# pinned_install NAME DIR WORKS AFTER PACKAGE@VERSION…: nothing when the function WORKS succeeds (a sub-second no-op);
# else `npm install` of the packages into DIR (its package.json made first), the function AFTER (`:` for none: the
# postinstall steps npm 11 may skip), and WORKS must then succeed. npm's output goes to stderr: stdout is for paths.
pinned_install() {
  local name=$1 dir=$2 works=$3 after=$4
  shift 4
  "$works" && return 0
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo "{\"name\":\"context-compactor-$(basename "$dir")\",\"private\":true}" > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --save-exact "$@" >&2
  "$after"
  "$works" || { echo "$name: the installed CLI does not run (in $dir)" >&2; return 1; }
}

# This machine's npm platform suffix (linux-x64, darwin-arm64, …) for the per-platform binary packages; fails elsewhere.
npm_platform() {
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) echo linux-x64 ;;
    Linux-aarch64) echo linux-arm64 ;;
    Darwin-x86_64) echo darwin-x64 ;;
    Darwin-arm64) echo darwin-arm64 ;;
    *) echo "no binary package for $(uname -s)-$(uname -m)" >&2; return 1 ;;
  esac
}
