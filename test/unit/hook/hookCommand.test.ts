// `context-compactor hook claude-code`: the agent's SessionStart JSON in, hookSpecificOutput out, on real compactions.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { HOOK_BUDGET_TOKENS } from '../../../src/core/hook/context';
import { estimateTokens } from '../../../src/core/tokens/estimate';
import { readCompactedStretch } from '../../../src/node/hooks/compactedStretch';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REAL = path.join(FIXTURES, 'real', 'claude-code');
const COMPACTED = fs.readdirSync(REAL).filter((f) => /compactions|compacted/.test(f)).map((f) => path.join(REAL, f));

/** Index of the last compaction's boundary line (Claude Code 1.0: its summary, which began a new chain). */
function lastBoundary(lines: readonly string[]): number {
  const at = lines.map((l, i) => (l.includes('"compact_boundary"') || (l.includes('"isCompactSummary":true') && l.includes('"parentUuid":null')) ? i : -1)).filter((i) => i >= 0);
  return at[at.length - 1]!;
}

/**
 * The fixture as it was when the hook ran: up to the last boundary (`withSummary`: and the summary record after it,
 * as an agent that writes both before its hook would leave it; Claude Code 2.1.328 writes neither first).
 */
function atHookTime(file: string, dir: string, withSummary: boolean): string {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const b = lastBoundary(lines);
  const summaryAt = lines.findIndex((l, i) => i >= b && l.includes('"isCompactSummary":true'));
  const out = path.join(dir, `${path.basename(file, '.jsonl')}-${withSummary ? 'b' : 'a'}.jsonl`);
  fs.writeFileSync(out, `${lines.slice(0, withSummary ? summaryAt + 1 : b).join('\n')}\n`);
  return out;
}

async function hook(stdin: string, agent = 'claude-code'): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = '';
  const code = await main(['hook', agent], { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env: {}, readStdin: async () => stdin });
  return { code, stdout, stderr };
}
const input = (transcript: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: '/tmp', hook_event_name: 'SessionStart', source: 'compact', ...extra });

test('fixtures with compactions are there', () => assert.ok(COMPACTED.length >= 3, COMPACTED.join(', ')));

for (const real of COMPACTED) {
  test(`hook on ${path.basename(real).slice(0, 40)}: SessionStart additionalContext within 2,000 tokens and the summary's size`, async (t) => {
    const file = atHookTime(real, tmpDir(t), true);
    const r = await hook(input(file));
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    assert.deepEqual(Object.keys(out), ['hookSpecificOutput']);
    assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
    const context = out.hookSpecificOutput.additionalContext;
    const { summary, session } = await readCompactedStretch(file);
    assert.ok(summary, 'the last compaction of the fixture is on disk with its summary');
    const tokens = estimateTokens(context);
    assert.ok(tokens > 0 && tokens <= HOOK_BUDGET_TOKENS, `${tokens} tokens`);
    assert.ok(tokens <= estimateTokens(summary), `${tokens} tokens vs a ${estimateTokens(summary)}-token summary`);
    // It is about the stretch before the boundary: a file it modified there is named, unless the summary names it.
    const edited = session.messages.flatMap((m) => m.blocks).flatMap((b) => (b.type === 'tool_call' && /^(?:Edit|Write|MultiEdit)$/.test(b.name) ? [String((b.input as { file_path?: string }).file_path)] : []));
    const named = edited.filter((p) => [context, summary].some((t) => t.includes(p) || t.includes(path.basename(p))));
    assert.ok(edited.length === 0 || named.length > 0, 'a file changed before the boundary is in the context or the summary');
  });
}

test('at hook time the boundary is not written yet (Claude Code 2.1.328): the live tail is the stretch, 2,000 tokens at most', async (t) => {
  const dir = tmpDir(t);
  const file = atHookTime(COMPACTED.find((f) => f.includes('tpos'))!, dir, false);
  const stretch = await readCompactedStretch(file);
  assert.equal(stretch.summary, undefined);
  assert.equal(stretch.boundaryLine, undefined);
  const onDisk = await readCompactedStretch(atHookTime(COMPACTED.find((f) => f.includes('tpos'))!, dir, true));
  assert.ok(onDisk.summary);
  assert.deepEqual(stretch.session.messages.map((m) => m.records), onDisk.session.messages.map((m) => m.records), 'the same stretch either way');
  const r = await hook(input(file));
  const context = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  assert.ok(estimateTokens(context) <= HOOK_BUDGET_TOKENS);
  assert.match(context, /## Latest requests/);
});

test('what the summary states is left out (cheap string check)', async (t) => {
  const file = COMPACTED.find((f) => f.includes('tpos'))!;
  const dir = tmpDir(t);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const last = lastBoundary(lines);
  const plain = atHookTime(file, dir, false);
  const without = (JSON.parse((await hook(input(plain))).stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  const item = without.split('\n').find((l) => l.startsWith('- ') && l.includes(': edited'))!;
  assert.ok(item, without);
  const filePath = item.slice(2, item.indexOf(': edited'));
  // The same history, with a long summary after the boundary that names that file.
  const summaryRecord = JSON.parse(lines.find((l) => l.includes('"isCompactSummary":true'))!) as { message: { content: unknown } };
  summaryRecord.message.content = `Summary. Files changed: ${filePath}. ${'The work went on. '.repeat(400)}`;
  const stated = path.join(dir, 'b.jsonl');
  fs.writeFileSync(stated, `${lines.slice(0, last + 1).join('\n')}\n${JSON.stringify(summaryRecord)}\n`);
  const withSummary = (JSON.parse((await hook(input(stated))).stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  assert.ok(!withSummary.includes(`- ${filePath}: edited`), 'a file the summary names is not repeated');
});

test('bad input never breaks the agent: exit 0, nothing on stdout, one line on stderr', async (t) => {
  const dir = tmpDir(t);
  const notTranscript = path.join(dir, 'x.jsonl');
  fs.writeFileSync(notTranscript, 'hello\n');
  const cases = ['{not json', '[]', input(path.join(dir, 'missing.jsonl')), input(notTranscript), input(path.join(REAL, 'tpos-2.0.57-4compactions.jsonl'), { source: 'startup' }), JSON.stringify({ source: 'compact' }), input(dir)];
  for (const stdin of cases) {
    const r = await hook(stdin);
    assert.equal(r.code, 0, stdin);
    assert.equal(r.stdout, '', stdin);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^context-compactor hook: .*; nothing added\n$/);
  }
});

test('hook codex on a real Codex rollout as its hook sees it (the compacted record written): SessionStart output within budget', async (t) => {
  const real = path.join(FIXTURES, 'real', 'codex', 'shellws-0.105.0-compacted-websearch.jsonl');
  const lines = fs.readFileSync(real, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.includes('"type":"compacted"'));
  const file = path.join(tmpDir(t), 'rollout.jsonl');
  fs.writeFileSync(file, `${lines.slice(0, at + 1).join('\n')}\n`);
  const r = await hook(input(file), 'codex');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
  const stretch = await readCompactedStretch(file);
  assert.equal(stretch.boundaryLine, at, 'the stretch ends at the compaction');
  assert.ok(stretch.kept, 'the replacement history Codex keeps is read');
  const tokens = estimateTokens(out.hookSpecificOutput.additionalContext);
  assert.ok(tokens > 0 && tokens <= HOOK_BUDGET_TOKENS, `${tokens}`);
  // A request Codex keeps in its replacement history is not handed back again.
  for (const line of out.hookSpecificOutput.additionalContext.split('\n').filter((l) => l.startsWith('> '))) assert.ok(!stretch.kept.includes(line.slice(2, 80)), line);
});
