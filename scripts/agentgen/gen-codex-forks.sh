#!/usr/bin/env bash
# Real Codex rollouts of a resumed and a forked session (test/fixtures/codex/forks-*): the real Codex CLI, offline
# against the loopback Responses API of ../shared/agentgen (FAKE=path to override). `codex exec` makes the session,
# `codex exec [-m MODEL] resume` continues it, and the fork is `codex exec fork` (Codex ≥ 0.155) or, before that,
# the app-server's `thread/fork` (codex-app-server-fork.mjs). Usage: gen-codex-forks.sh CODEX_BIN OUTDIR [RESUME_MODEL]
set -euo pipefail
codex=$(realpath "${1:?usage: gen-codex-forks.sh CODEX_BIN OUTDIR [RESUME_MODEL]}"); out=$(realpath -m "${2:?}"); model=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
fake=${FAKE:-$here/../../../shared/agentgen/fake-openai-responses.mjs}
work=$(mktemp -d); mkdir -p "$work/repo"
echo '{"tasks":[{"prompt":"a","steps":[{"text":"Answer one."}]},{"prompt":"b","steps":[{"text":"Answer two."}]},{"prompt":"c","steps":[{"text":"Answer three."}]}]}' > "$work/scenario.json"
port=$((19900 + RANDOM % 90))
FAKE_USAGE_SCALE=0.05 node "$fake" $port "$work/scenario.json" "$work/requests.jsonl" & srv=$!
trap 'kill $srv 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 0.5
export CODEX_HOME="$work/codex" LOOPBACK_API_KEY=sk-loopback; mkdir -p "$CODEX_HOME"
printf 'model = "gpt-5.2"\nmodel_provider = "loopback"\n[model_providers.loopback]\nname = "loopback"\nbase_url = "http://127.0.0.1:%s/v1"\nwire_api = "responses"\nenv_key = "LOOPBACK_API_KEY"\n' $port > "$CODEX_HOME/config.toml"
cd "$work/repo"; git init -q
timeout 120 "$codex" exec --skip-git-repo-check -- "First prompt: say one." > /dev/null 2>&1
id=$(basename "$(find "$CODEX_HOME/sessions" -name 'rollout-*.jsonl' | head -1)" .jsonl | grep -oE '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')
timeout 120 "$codex" exec --skip-git-repo-check ${model:+-m "$model"} resume "$id" -- "Second prompt after resume." > /dev/null 2>&1
if "$codex" exec --help 2>&1 | grep -qE '^\s*fork'; then timeout 120 "$codex" exec --skip-git-repo-check fork "$id" -- "Third prompt, in the fork." > /dev/null 2>&1
else timeout 90 node "$here/codex-app-server-fork.mjs" "$codex" "$id" "Third prompt, in the fork." > /dev/null 2>&1; fi
mkdir -p "$out"; find "$CODEX_HOME/sessions" -name 'rollout-*.jsonl' -exec cp {} "$out/" \;
ls -la "$out"
