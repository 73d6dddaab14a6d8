// Marker search (markedLines.ts) finds exactly the lines a split-and-filter pass finds, across chunk boundaries.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AGENT_IDS, agentModule } from '../../../src/core/formats/registry';
import { lineWanted, steadyMarkers } from '../../../src/core/usage/lineFilter';
import { newFileState } from '../../../src/core/usage/types';
import { scanMarkedLines } from '../../../src/node/usage/markedLines';
import { scanDirs, tempDir, totalsOf } from './helpers';

/** The reference: split every line, keep those holding a marker, stop before an unterminated last line. */
function reference(text: string, from: number, markers: string[], max: number): { lines: string[]; end: number; oversized: number } {
  const end = text.lastIndexOf('\n') + 1;
  const all = end > from ? text.slice(from, end - 1).split('\n') : [];
  const hits = all.filter((l) => markers.some((m) => l.includes(m)));
  return { lines: hits.filter((l) => l.length <= max), end: Math.max(end, from), oversized: hits.filter((l) => l.length > max).length };
}

function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

test('every line holding a marker, none other, whatever the chunk size and line lengths', async (t) => {
  const dir = tempDir(t);
  const next = random(7);
  const markers = ['"usage"', 'token_count'];
  for (let round = 0; round < 60; round++) {
    const lines: string[] = [];
    for (let i = 0, n = 1 + Math.floor(next() * 40); i < n; i++) {
      const len = Math.floor(next() ** 3 * 300);
      let line = Array.from({ length: len }, () => 'abcdefgh"{}:,'[Math.floor(next() * 13)]).join('');
      const r = next();
      if (r < 0.3) line = line.slice(0, Math.floor(next() * line.length)) + markers[Math.floor(next() * 2)] + line.slice(Math.floor(next() * line.length));
      else if (r < 0.35) line += '"usa'; // a marker's prefix at a line end is no marker
      lines.push(line);
    }
    const tail = next() < 0.3 ? '{"half":"usage"' : ''; // a writer mid-line
    const text = lines.join('\n') + '\n' + tail;
    const file = join(dir, `r${round}.jsonl`);
    writeFileSync(file, text);
    const chunk = [24, 25, 31, 64, 200][round % 5];
    const from = round % 3 === 0 ? 0 : text.indexOf('\n') + 1;
    const seen: string[] = [];
    const r = await scanMarkedLines(file, from, markers.map((m) => Buffer.from(m)), (b, start, end) => { seen.push(b.toString('utf8', start, end)); }, { bytesRead: 0 }, 150, chunk);
    const want = reference(text, from, markers, 150);
    assert.deepEqual(seen, want.lines, `round ${round}, chunk ${chunk}`);
    assert.equal(r.endOffset, want.end, `round ${round}: endOffset`);
    assert.equal(r.oversizedLines, want.oversized, `round ${round}: oversized`);
  }
});

test('steady markers: only once the title (and a Claude timestamp) is known, then the same set', () => {
  const claude = newFileState('claude-code');
  assert.equal(steadyMarkers(claude), undefined);
  claude.title = 'x';
  assert.equal(steadyMarkers(claude), undefined);
  claude.firstTimestamp = '2026-12-02T00:00:00Z';
  // Claude Code's `ai-title` records name the session through the file: wanted after the first prompt too.
  assert.deepEqual(steadyMarkers(claude), ['"usage"', '"commandRun":{"command":"model"', 'command-stdout>Set model to', '"ai-title","aiTitle"']);
  const codex = newFileState('codex');
  assert.equal(steadyMarkers(codex), undefined);
  codex.title = 'y';
  assert.ok(steadyMarkers(codex)?.includes('token_count'));
});

test("every agent's steady markers agree with its line filter on any line", () => {
  const next = random(11);
  const words = ['"usage"', '"commandRun"', '"commandRun":{"command":"model"', 'command-stdout>Set model to', 'Set model to', '"timestamp"', '"user"', '"tool_result"', 'token_count', 'token_usage_record', 'turn_context', 'session_meta', 'user_message', '"usageMetadata"', '"custom_title"', '"ai-title","aiTitle"', '"ai-title"', 'x'];
  // Agents whose usage is read line by line (document agents' usage comes from the session read whole).
  const lineAgents = AGENT_IDS.filter((a) => agentModule(a).usage.kind === 'lines');
  assert.deepEqual(lineAgents, ['claude-code', 'codex', 'qwen-code']);
  for (const agent of lineAgents) {
    for (const [title, first] of [['t', '2026-12-02'], ['t', undefined], [undefined, '2026-12-02']] as const) {
      const state = { ...newFileState(agent), title, firstTimestamp: first };
      const markers = steadyMarkers(state);
      if (!markers) continue;
      for (let i = 0; i < 300; i++) {
        const line = Array.from({ length: 1 + Math.floor(next() * 4) }, () => words[Math.floor(next() * words.length)]).join(',');
        const has = (m: string): boolean => line.includes(m);
        assert.equal(lineWanted(state, has), markers.some(has), `${agent}: ${line}`);
      }
    }
  }
});

test('the marker search gives the same report as parsing every line', async () => {
  const fast = await scanDirs([join(__dirname, '../../fixtures/usage')]);
  const full = await scanDirs([join(__dirname, '../../fixtures/usage')], { prefilter: false });
  assert.ok(fast.report.sessions.length >= 3);
  assert.deepEqual(totalsOf(fast), totalsOf(full));
  const pick = (s: (typeof fast.report.sessions)[number]): unknown[] => [s.sessionId, s.title, s.models, s.contextTokens, s.firstTimestamp, s.inputTokens, s.outputTokens];
  assert.deepEqual(fast.report.sessions.map(pick), full.report.sessions.map(pick));
  assert.ok(fast.stats.linesParsed < full.stats.linesParsed / 2, `${fast.stats.linesParsed} vs ${full.stats.linesParsed}`);
});
