// The independent probe set (src/core/probes) on the real fixtures: the facts it reads from the raw records, that a
// compactor dropping one of them loses that probe, and that today's cleanup loses some where the old probes said 100 %.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Session } from '../../../src/core/model/transcript';
import { checkProbes, outputText } from '../../../src/core/probes/check';
import { extractProbes, PER_KIND } from '../../../src/core/probes/extract';
import { PROBE_KINDS, type Probe, type ProbeKind } from '../../../src/core/probes/types';
import { prepareCompaction } from '../../../src/node/compactFile';
import { readRawSource } from '../../../src/node/eval/rawSource';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';

const REAL = path.join(__dirname, '..', '..', 'fixtures', 'real');
const fixture = (p: string): string => path.join(REAL, p);
/** Every real fixture session: the JSON/JSONL/Markdown files, and Cline's task folders. */
const ALL = fs.readdirSync(REAL).filter((a) => fs.statSync(path.join(REAL, a)).isDirectory()).flatMap((a) =>
  fs.readdirSync(path.join(REAL, a)).filter((f) => a === 'cline' || /\.(?:jsonl?|md)$/.test(f)).map((f) => path.join(REAL, a, f)));

async function probesOf(file: string): Promise<{ session: Session; probes: Probe[] }> {
  const { session } = await readTranscriptFile(file);
  return { session, probes: extractProbes(readRawSource(file, session)) };
}
const labels = (probes: readonly Probe[], kind: ProbeKind): string[] => probes.filter((p) => p.kind === kind).map((p) => p.label);

test('Claude Code: an Exit-code-header error is probed by its fatal line; PR links and a multi-line command by their text', async () => {
  const file = fixture('claude-code/idaho-2.1.92-to-2.1.101-6compactions-images-windows.jsonl');
  const { session, probes } = await probesOf(file);
  const errors = labels(probes, 'errors');
  assert.ok(errors.some((l) => l.endsWith(": fatal: invalid object name '!C'.")), errors.join('\n'));
  assert.ok(errors.every((l) => !/: Exit code \d+$/.test(l)), 'an error probed by its header');
  // The PR link came before the agent's own last compaction: not in the context it holds, so not looked for — but
  // read from the whole file (wholeFile), it is there, with the issue it named.
  assert.ok(!labels(probes, 'url').some((l) => l.includes('/pull/new/')));
  const whole = extractProbes(readRawSource(file, session), { wholeFile: true });
  assert.ok(labels(whole, 'url').includes('url https://github.com/LAF-US/IDAHO-VAULT/pull/new/bot/daily-rollover-2026-04-13'), labels(whole, 'url').join('\n'));
  assert.ok(labels(whole, 'issue').includes('issue #235'));
  // "# Prüfe ob der Server überhaupt Audio generiert\ncurl -s -X POST …": the comment is skipped, the command is the probe.
  const tpos = (await probesOf(fixture('claude-code/tpos-2.0.57-4compactions.jsonl'))).probes;
  assert.ok(labels(tpos, 'commands').includes('command curl -s -X POST http://localhost:8888/notify \\'), labels(tpos, 'commands').join('\n'));
  assert.ok(labels(tpos, 'commands').every((l) => !l.startsWith('command #')));
  assert.ok(labels(tpos, 'files').includes('file /Users/pretor/.claude/voice-server/server.ts'));
});

test('Codex and Gemini CLI: files from apply_patch, failed runs by their error line, constraints, commands and ids', async () => {
  const bb = fixture('codex/brainbuddy-0.64.0-4compactions-apply-patch.jsonl');
  const codex = extractProbes(readRawSource(bb, (await readTranscriptFile(bb)).session), { wholeFile: true });
  assert.ok(labels(codex, 'files').includes('file backend/tests/test_relation_service.py'));
  assert.ok(labels(codex, 'errors').some((l) => l.includes('FAILED tests/test_relation_service.py::test_create_and_update_relation')), labels(codex, 'errors').join('\n'));
  const idaho = (await probesOf(fixture('codex/idaho-0.118.0-alpha.2-12images-websearch-windows.jsonl'))).probes;
  assert.ok(labels(idaho, 'files').includes('file C:\\Users\\loganf\\Documents\\IDAHO-VAULT\\AGENTS.md'), labels(idaho, 'files').join('\n'));
  assert.ok(labels(idaho, 'errors').includes('error (fixed later): ! [rejected]        main -> main (non-fast-forward)'), labels(idaho, 'errors').join('\n'));
  assert.ok(labels(idaho, 'constraints').includes('constraint: Do not turn completion-checking or housekeeping into a new task.'));
  assert.ok(labels(idaho, 'commands').includes('command git rev-parse --abbrev-ref HEAD'));
  // Codex's injected turns (<environment_context>, AGENTS.md) are not requests.
  const legacy = (await probesOf(fixture('codex/ocodex-0.2x-legacy-format.jsonl'))).probes;
  assert.ok(labels(legacy, 'requests').length > 0 && labels(legacy, 'requests').every((l) => !/<environment_context>|AGENTS\.md/.test(l)));
  assert.ok(labels(legacy, 'commands').includes('command cargo build -p orchestrator'));
  const gemini = (await probesOf(fixture('gemini-cli/ticketing-nover-jsonl-format-windows.jsonl'))).probes;
  assert.ok(labels(gemini, 'constraints').some((l) => l.startsWith("constraint: don't use spring.jpa.hibernate.ddl-auto=update")), labels(gemini, 'constraints').join('\n'));
  assert.ok(labels(gemini, 'commands').includes('command ./gradlew test'));
  assert.ok(labels(gemini, 'url').includes('url http://localhost:8080/swagger-ui/index.html'));
  assert.equal(labels(gemini, 'requests')[0], 'request: yes', 'the latest request comes first');
});

test('every kind is found across the fixtures; capped per kind, deterministic, and every probe is in the original itself', async () => {
  const seen = new Set<ProbeKind>();
  for (const file of ALL) {
    const { session, probes } = await probesOf(file);
    for (const k of PROBE_KINDS) assert.ok(labels(probes, k).length <= PER_KIND, `${file}: ${k}`);
    for (const p of probes) seen.add(p.kind);
    assert.deepEqual(extractProbes(readRawSource(file, session)), probes, `${file}: not deterministic`);
    // The probes come from the context the agent holds: nothing lost is lost before the compactor ran.
    const self = checkProbes(probes, outputText(session));
    assert.deepEqual(self.lost, [], path.basename(file));
  }
  assert.deepEqual([...seen].sort(), [...PROBE_KINDS].sort());
});

/** A copy of a session with `text` taken out of every string of its blocks: a compactor that dropped that fact. */
function without(session: Session, text: string): Session {
  const strip = (v: unknown): unknown => (typeof v === 'string' ? v.split(text).join('') : Array.isArray(v) ? v.map(strip) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)])) : v);
  return { ...session, messages: session.messages.map((m) => ({ ...m, blocks: m.blocks.map((b) => strip(b) as typeof b) })) };
}

test('a compactor that drops a fact the probes know loses that probe, and only that one', async () => {
  const file = fixture('codex/idaho-0.118.0-alpha.2-12images-websearch-windows.jsonl');
  const p = await prepareCompaction(file, { keepRecentTurns: 6 });
  const probes = extractProbes(readRawSource(file, p.original));
  const before = checkProbes(probes, outputText(p.outcome.result));
  for (const [kind, fact] of [['commands', 'git rev-parse --abbrev-ref HEAD'], ['url', 'https://developers.openai.com/codex/cli/reference']] as const) {
    const probe = probes.find((x) => x.kind === kind && x.label.endsWith(fact))!;
    assert.ok(probe && !before.lost.includes(probe.label), `${fact} is kept by cleanup to begin with`);
    const after = checkProbes(probes, outputText(without(p.outcome.result, fact)));
    assert.ok(after.lost.includes(probe.label), `${fact}: still counted as kept`);
    assert.equal(after.byKind[kind]!.kept, before.byKind[kind]!.kept - 1);
  }
});

test("the record-per-call cleanup (state snapshot off) loses error lines and hashes its records drop, where the self-grading probes said 100 %", async () => {
  // The old probes (eval/probes.ts, gone) said 1 on this session with the records alone: error 1/1, ids 8/8, all 100 %.
  const file = fixture('codex/idaho-0.118.0-alpha.2-12images-websearch-windows.jsonl');
  const p = await prepareCompaction(file, { keepRecentTurns: 6, rules: { 'state-snapshot': { enabled: false } } });
  const out = checkProbes(extractProbes(readRawSource(file, p.original)), outputText(p.outcome.result));
  assert.ok(out.byKind.errors!.kept / out.byKind.errors!.total < 1, JSON.stringify(out.byKind.errors));
  assert.ok(out.byKind.hash!.kept / out.byKind.hash!.total < 1, JSON.stringify(out.byKind.hash));
  assert.ok(out.lost.includes('error (fixed later): ! [rejected]        main -> main (non-fast-forward)'), out.lost.join('\n'));
  assert.ok(out.kept! < 1);
});

test('the generic walker: Cline tool calls, Copilot Chat requests, Aider prompts and edits, OpenCode tool parts', async () => {
  const cline = (await probesOf(fixture('cline/online-card-3.51.0-vscode'))).probes;
  assert.ok(labels(cline, 'files').includes('file /workspaces/Online-Card-Architecture/IMPLEMENTATION_GUIDE.md'), labels(cline, 'files').join('\n'));
  // Cline writes tool results and its reminders into the user's turn: not requests.
  assert.deepEqual(labels(cline, 'requests').map((l) => l.slice(0, 40)), ['request: You have been given a Dockerize']);
  const copilot = (await probesOf(fixture('copilot-chat/gitai-0.31.5-claude-sonnet-4-agent.json'))).probes;
  assert.deepEqual(labels(copilot, 'requests'), ['request: Search for any other mentions of Bonjour', 'request: Change Bonjour World to hello world', 'request: What can you help me with?']);
  const aider = (await probesOf(fixture('aider/metadata-aider-0.86.1-diff-cost.aider.chat.history.md'))).probes;
  assert.ok(labels(aider, 'files').includes('file frontend/ui.ts'));
  assert.equal(labels(aider, 'requests')[0], 'request: write a README file in the root project directory describing the summary of the project');
  const opencode = (await probesOf(path.join(__dirname, '..', '..', 'fixtures', 'opencode', 'export-1.18.33.json'))).probes;
  assert.ok(labels(opencode, 'commands').includes('command git diff --stat'));
  assert.ok(labels(opencode, 'files').includes('file /tmp/cc-gen-opencode-iIqU1T/shop/src/config.ts'));
  assert.ok(labels(opencode, 'requests').every((l) => l.includes('[task ')), labels(opencode, 'requests').join('\n'));
});
