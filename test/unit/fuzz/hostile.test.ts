// Hand-made hostile transcripts (from the real fixtures): each gives a result with warnings or a one-line error.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';
import { runCompact } from '../../../src/cli/compactCommand';
import type { Session } from '../../../src/core/model/transcript';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE, CODEX_SAMPLE, GEMINI_SAMPLE } from '../../support/fixtures';
import { duplicateIds, runCore } from '../../support/fuzz';
import { tmpDir } from '../../support/tmp';

const claude = readFileSync(CLAUDE_SAMPLE, 'utf8').trimEnd().split('\n');
const codex = readFileSync(CODEX_SAMPLE, 'utf8').trimEnd().split('\n');
const text = (lines: readonly string[]): string => `${lines.join('\n')}\n`;
const read = (lines: readonly string[]): { session: Session; out: Session } => {
  const r = runCore(Buffer.from(text(lines)));
  assert.ok(r.ok && r.session && r.outputSession, r.error);
  return { session: r.session, out: r.outputSession };
};
const warned = (s: Session, re: RegExp): void => assert.ok(s.warnings.some((w) => re.test(w)), `expected a warning ${re}, got ${JSON.stringify(s.warnings)}`);
const base = read(claude).session;
const codexBase = read(codex).session;
const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

test('the clean fixtures read without warnings (so each warning below is caused by its mutation)', () => {
  assert.deepEqual(base.warnings, []);
  assert.deepEqual(codexBase.warnings, []);
});

test('the same lines twice: nothing doubled, a warning; the output has unique tool ids (Claude and Codex)', () => {
  for (const [lines, once] of [[claude, base], [codex, codexBase]] as const) {
    const { session, out } = read([...lines, ...lines]);
    assert.equal(session.messages.length, once.messages.length);
    warned(session, /repeat/);
    assert.deepEqual(duplicateIds(out.messages, 'tool_call'), []);
    assert.deepEqual(duplicateIds(out.messages, 'tool_result'), []);
  }
});

/** Tool calls of `s` with no result, and results with no call (the last assistant message's calls may still run). */
function unpaired(s: Session): string[] {
  const calls = new Set<string>(), results = new Set<string>();
  let lastAssistant = -1;
  s.messages.forEach((m, i) => { if (m.role === 'assistant') lastAssistant = i; });
  s.messages.forEach((m, i) => {
    for (const b of m.blocks) {
      if (b.type === 'tool_call' && b.id && i !== lastAssistant) calls.add(b.id);
      if (b.type === 'tool_result' && b.id) results.add(b.id);
    }
  });
  return [...[...calls].filter((id) => !results.has(id)), ...[...results].filter((id) => !calls.has(id))];
}

test('a tool call repeated at the end of the file (a new record, same ids): dropped (with a warning where the agent never does it) and not written back (Claude, Codex, Gemini)', async (t) => {
  const dir = tmpDir(t);
  const gemini = readFileSync(GEMINI_SAMPLE, 'utf8').trimEnd().split('\n');
  const lastUuid = [...claude].reverse().map((l) => JSON.parse(l) as { uuid?: string }).find((r) => r.uuid)!.uuid;
  const again = (lines: readonly string[], marker: string, edit: (r: Record<string, unknown>) => void): string[] => {
    const r = JSON.parse(lines.find((l) => l.includes(marker))!) as Record<string, unknown>;
    edit(r);
    return [...lines, JSON.stringify(r)];
  };
  const cases: [string, string[]][] = [
    // Claude Code: the same assistant record under a new uuid, chained last (its message.id joins it to the first).
    ['claude, one call per record', again(claude, '"type":"tool_use"', (r) => { r.uuid = '11111111-2222-4333-8444-555555555555'; r.parentUuid = lastUuid; })],
    // Claude Code 1.0 style: text and the repeated call in one record; the text must stay, the call must go.
    ['claude, text and call in one record', again(claude, '"type":"tool_use"', (r) => {
      r.uuid = '11111111-2222-4333-8444-666666666666';
      r.parentUuid = lastUuid;
      r.timestamp = '2026-12-02T23:59:59.000Z'; // the newest record: the live branch's leaf
      const msg = r.message as { id: string; content: unknown[] };
      msg.id = 'msg_repeat';
      msg.content = [{ type: 'text', text: 'REPEAT-TEXT-KEPT' }, ...msg.content];
    })],
    // Codex: the same function_call item later (a new timestamp, so not an exact repeat of the line).
    ['codex', again(codex, '"type":"function_call"', (r) => { r.timestamp = '2026-12-02T23:59:59.000Z'; })],
    ['gemini', again(gemini, '"toolCalls":[{', (r) => { r.id = 'repeat-entry'; })],
  ];
  for (const [name, lines] of cases) {
    const file = join(dir, `${name.replace(/\W+/g, '-')}`, basename(name === 'gemini' ? GEMINI_SAMPLE : name === 'codex' ? CODEX_SAMPLE : CLAUDE_SAMPLE));
    mkdirSync(dirname(file));
    writeFileSync(file, text(lines));
    let stdout = '', stderr = '';
    const code = await runCompact([file, '--out', join(dirname(file), `out-${basename(file)}`), '--json', '--keep-recent', '1'], { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env: {} });
    assert.equal(code, 0, `${name}: ${stderr}`);
    const report = JSON.parse(stdout) as { warnings: string[]; pairsIntact: boolean; output: string };
    // Gemini CLI records each response twice itself: a repeat there is expected, left out without a warning.
    if (name !== 'gemini') assert.ok(report.warnings.some((w) => /repeated tool call/.test(w)), `${name}: ${JSON.stringify(report.warnings)}`);
    assert.ok(report.pairsIntact, name);
    const out = (await readTranscriptFile(report.output)).session;
    assert.deepEqual(duplicateIds(out.messages, 'tool_call'), [], name);
    assert.deepEqual(unpaired(out), [], `${name}: ${JSON.stringify(out.warnings)}`);
    assert.ok(!out.warnings.some((w) => /have no result|not in the file/.test(w)), `${name}: ${JSON.stringify(out.warnings)}`);
    if (name.includes('text and call')) assert.ok(out.messages.some((m) => m.blocks.some((b) => b.type === 'text' && b.text.includes('REPEAT-TEXT-KEPT'))), name);
  }
});

test('a parentUuid cycle mid-chain is repaired: no message lost, a warning names the line', () => {
  const recs = claude.map((l) => JSON.parse(l) as { uuid?: string; parentUuid?: string; type?: string });
  const chain = recs.map((r, i) => [r, i] as const).filter(([r]) => r.uuid && (r.type === 'user' || r.type === 'assistant'));
  const [mid, at] = chain[Math.floor(chain.length / 2)]!;
  mid.parentUuid = chain[Math.floor((chain.length * 3) / 4)]![0].uuid; // points forward: a cycle
  const { session } = read(recs.map((r) => JSON.stringify(r)));
  assert.equal(session.messages.length, base.messages.length);
  warned(session, new RegExp(`line ${at + 1}: .*cycle`));
});

test('a tool result before its call, an orphan call and an orphan result are each reported', () => {
  const swap = [...codex];
  const call = swap.findIndex((l) => l.includes('"type":"function_call"'));
  const result = swap.findIndex((l) => l.includes(`"type":"function_call_output"`));
  [swap[call], swap[result]] = [swap[result]!, swap[call]!];
  warned(read(swap).session, /come before their call/);
  warned(read(codex.filter((_, i) => i !== result)).session, /have no result/);
  warned(read(codex.filter((_, i) => i !== call)).session, /answer a call that is not in the file/);
});

test('mixed Claude Code and Codex lines: the foreign lines are ignored with a warning', () => {
  const { session } = read([...claude.slice(0, 10), ...codex, ...claude.slice(10)]);
  assert.equal(session.format, 'claude-code');
  assert.equal(session.messages.length, base.messages.length);
  warned(session, /codex records inside a claude-code transcript/);
});

test('impossible usage figures (1e400, 2^53+1, -5) are ignored with a warning, never taken as real', () => {
  const lines = claude.map((l) => l.replace(/"output_tokens":\d+/, '"output_tokens":9007199254740993').replace(/"input_tokens":\d+/, '"input_tokens":1e400'));
  const { session } = read(lines);
  warned(session, /impossible token counts/);
  for (const m of session.messages) for (const v of Object.values(m.usage ?? {})) assert.ok(Number.isSafeInteger(v) && v >= 0 && v < 2 ** 40, String(v));
  const neg = read(codex.map((l) => l.replace(/"output_tokens":\d+/g, '"output_tokens":-5'))).session;
  warned(neg, /impossible token counts/);
});

test('a __proto__ key inside tool input survives reading, cleanup records and writing', () => {
  const lines = claude.map((l) => (l.includes('"type":"tool_use"') ? l.replace('"input":{', `"input":{"__proto__":{"polluted":"yes"},"pad":"${'p'.repeat(3000)}",`) : l));
  const { session, out } = read(lines);
  const calls = (s: Session) => s.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_call');
  assert.ok(calls(session).every((b) => b.type === 'tool_call' && Object.hasOwn(b.input as object, '__proto__')));
  // Old calls become short records (their long argument cut), recent ones are copied: the key is in both.
  assert.ok(calls(out).some((b) => b.type === 'tool_call' && b.inputText.length < 3000), 'some call was shortened');
  for (const b of calls(out)) assert.ok(b.type === 'tool_call' && b.inputText.includes('"__proto__"'), b.type === 'tool_call' ? b.inputText : '');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('100,000-deep nesting inside old tool results and inputs: compact exits 0 with a warning, no stack trace', async (t) => {
  const dir = tmpDir(t);
  // [file, lines, whether a value had to be pruned (a block kept only the text of the third)]
  const cases: [string, string[], boolean][] = [
    // The old outputs are replaced by the state snapshot (built from their text): no record with the deep value is written.
    ['codex-output.jsonl', codex.map((l) => (l.includes('"type":"function_call_output"') ? l.replace('"type":"function_call_output"', `"type":"function_call_output","deep":${DEEP}`) : l)), false],
    ['claude-input.jsonl', claude.map((l) => (l.includes('"type":"tool_use"') ? l.replace('"input":{', `"input":{"deep":${DEEP},`) : l)), true],
    ['claude-result.jsonl', claude.map((l) => (l.includes('"type":"tool_result"') ? l.replace('"type":"tool_result"', `"type":"tool_result","content":[{"type":"text","text":"x"},{"type":"odd","v":${DEEP}}]`) : l)), false],
  ];
  for (const [name, lines, pruned] of cases) {
    const file = join(dir, name);
    writeFileSync(file, text(lines));
    let stdout = '', stderr = '';
    const code = await runCompact([file, '--out', join(dir, `out-${name}`), '--json', '--keep-recent', '1'], { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env: {} });
    assert.equal(code, 0, `${name}: ${stderr}`);
    const report = JSON.parse(stdout) as { warnings: string[]; pairsIntact: boolean };
    assert.equal(report.warnings.some((w) => /nest(ed)? deeper than 1000 levels/.test(w)), pruned, `${name}: ${JSON.stringify(report.warnings)}`);
    assert.ok(report.pairsIntact, name);
    const again = runCore(readFileSync(join(dir, `out-${name}`)));
    assert.ok(again.ok, `${name}: output reads back`);
  }
});

test('a 60 MB line inside an old tool result: compact gives a result, the output reads back', async (t) => {
  const dir = tmpDir(t);
  const big = 'x'.repeat(60 * 2 ** 20);
  const file = join(dir, 'big.jsonl');
  const at = claude.findIndex((l) => l.includes('"type":"tool_result"'));
  writeFileSync(file, text(claude.map((l, i) => (i === at ? l.replace('"type":"tool_result"', `"type":"tool_result","content":"${big}"`) : l))));
  let stderr = '';
  const code = await runCompact([file, '--out', join(dir, 'out.jsonl'), '--json'], { stdout: () => undefined, stderr: (s) => { stderr += s; }, env: {} });
  assert.equal(code, 0, stderr);
  const out = readFileSync(join(dir, 'out.jsonl'));
  assert.ok(out.length < 2 ** 20, `compacted to ${out.length} bytes`);
  assert.ok(runCore(out).ok);
});

test('NUL bytes and invalid UTF-8 in the middle: a partial result with a warning; at the start: a one-line error', () => {
  const mid = Math.floor(claude.length / 2);
  const bad = Buffer.concat([Buffer.from(text(claude.slice(0, mid))), Buffer.from([0, 0, 0xff, 0xfe, 0xc3, 0x28, 10]), Buffer.from(text(claude.slice(mid)))]);
  const r = runCore(bad);
  assert.ok(r.ok && r.session, r.error);
  assert.ok(r.session.warnings.some((w) => /not valid JSON/.test(w)), JSON.stringify(r.session.warnings));
  const head = runCore(Buffer.concat([Buffer.from([0, 1, 2, 0xff, 0, 10]), Buffer.from(text(claude))]));
  assert.ok(!head.ok && head.error && !head.error.includes('\n'), head.error);
});
