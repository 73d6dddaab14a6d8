// compositionView: the view built from the real fixtures and the item pages the host serves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TOKEN_KINDS } from '../../../src/core/model/transcript';
import { inspectReport } from '../../../src/node/inspectFile';
import { loadCompositionModel, TOP_ITEMS } from '../../../src/node/compositionView';
import { MAX_ITEMS_PAGE, type ItemRow } from '../../../src/protocol/messages';
import { searchEntries } from '../../../src/core/search/extract';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../../support/fixtures';

const load = (file: string) => loadCompositionModel(file, (id) => `${id}#1`);

test('the view carries the inspect report figures for the Claude Code fixture', async () => {
  const [model, report] = await Promise.all([load(CLAUDE_SAMPLE), inspectReport(CLAUDE_SAMPLE)]);
  const v = model.view;
  assert.equal(v.sessionId, `${report.sessionId}#1`);
  assert.equal(v.file, CLAUDE_SAMPLE);
  assert.equal(v.agent, 'Claude Code', 'the header names the agent, not its format id');
  assert.equal(v.totals.total, report.tokens.total);
  assert.equal(v.totals.overhead, report.tokens.estimator.systemOverhead);
  assert.deepEqual(v.byKind.map((k) => k.kind), [...TOKEN_KINDS]);
  assert.deepEqual(Object.fromEntries(v.byKind.map((k) => [k.kind, k.tokens])), report.tokens.byKind);
  assert.deepEqual(v.byTool.map((t) => t.tool).slice(0, 2), ['Read', 'Bash']);
  assert.equal(v.perTurn.length, report.turns);
  assert.ok(v.perTurn.some((p) => p.source === 'recorded') && v.perTurn.some((p) => p.source === 'estimated'));
  assert.equal(v.top.length, TOP_ITEMS);
  assert.deepEqual(v.top.slice(0, 3).map((i) => i.line), report.top.slice(0, 3).map((i) => i.line));
  // Item counts add up to every item once, whichever way they are grouped.
  assert.equal(v.byKind.reduce((a, k) => a + k.items, 0), v.totals.items);
  // JSON-only: a JSON round trip changes nothing (no undefined fields, Maps or class instances).
  assert.deepEqual(JSON.parse(JSON.stringify(v)), v);
});

test('pages of one kind are sorted, contiguous and add up to the kind total', async () => {
  const model = await load(CLAUDE_SAMPLE);
  const kind = model.view.byKind.find((k) => k.kind === 'tool_result')!;
  const seen: ItemRow[] = [];
  for (let offset = 0; ; offset += 7) {
    const page = model.page({ by: 'kind', value: 'tool_result' }, offset, 7);
    assert.equal(page.total, kind.items);
    assert.equal(page.offset, Math.min(offset, kind.items));
    if (page.items.length === 0) break;
    seen.push(...page.items);
  }
  assert.equal(seen.length, kind.items);
  assert.ok(seen.every((i) => i.kind === 'tool_result'));
  assert.ok(seen.every((i, n) => n === 0 || seen[n - 1]!.tokens >= i.tokens));
  const sum = seen.reduce((a, i) => a + i.tokens, 0);
  assert.ok(Math.abs(sum - kind.tokens) <= kind.items, `${sum} vs ${kind.tokens}`);
});

test('tool pages hold only that tool, both its calls and its results', async () => {
  const model = await load(CODEX_SAMPLE);
  const tool = model.view.byTool[0]!;
  const page = model.page({ by: 'tool', value: tool.tool }, 0, 1000);
  assert.equal(page.total, tool.items);
  assert.ok(page.items.every((i) => i.tool === tool.tool));
  assert.deepEqual(new Set(page.items.map((i) => i.kind)), new Set(['tool_call', 'tool_result']));
  assert.deepEqual(JSON.parse(JSON.stringify(model.view)), model.view);
});

test('page bounds: limit is capped, offsets past the end and unknown filters give empty pages', async () => {
  const model = await load(CLAUDE_SAMPLE);
  const all = model.view.totals.items;
  assert.ok(all > 0);
  const big = model.page({ by: 'kind', value: 'tool_result' }, 0, 10 * MAX_ITEMS_PAGE);
  assert.ok(big.items.length <= MAX_ITEMS_PAGE);
  assert.deepEqual(model.page({ by: 'kind', value: 'tool_result' }, 1e9, 10), { offset: big.total, total: big.total, items: [] });
  assert.deepEqual(model.page({ by: 'tool', value: 'NoSuchTool' }, 0, 10), { offset: 0, total: 0, items: [] });
  assert.deepEqual(model.page({ by: 'kind', value: 'not-a-kind' as never }, 0, 10), { offset: 0, total: 0, items: [] });
  assert.deepEqual(model.page({ by: 'kind', value: 'tool_result' }, -5, -1).items, []);
});

test('a search match opens at its message: every indexed entry finds its message and its block\'s row by line', async () => {
  const tokenKind = { prompt: 'user', reply: 'assistant', 'tool call': 'tool_call', 'tool result': 'tool_result', reasoning: 'reasoning', summary: 'summary' } as const;
  for (const file of [CLAUDE_SAMPLE, CODEX_SAMPLE]) {
    const [model, { session }] = await Promise.all([load(file), readTranscriptFile(file)]);
    const entries = searchEntries(session);
    assert.ok(entries.length > 20, file);
    for (const e of entries) {
      const f = model.focus({ message: e.message, record: e.record, kind: e.kind, snippet: { text: e.text.slice(0, 20), start: 0, end: 1 } });
      assert.equal(f.found, true);
      assert.equal(f.messages, session.messages.length);
      assert.equal(f.rows.length, session.messages[e.message]!.blocks.length, 'one row per block of the message');
      assert.equal(f.line, e.record + 1, `${file}: message ${e.message}, record ${e.record}`);
      assert.ok(f.rows.some((r) => r.line === f.line && r.kind === tokenKind[e.kind]), `${file}: the ${e.kind} row at line ${f.line}`);
    }
    // Rows are the message's blocks in context order: the first message's rows come from its own records.
    const first = model.focus({ message: 0, record: -1, kind: 'prompt', snippet: { text: '', start: 0, end: 0 } });
    assert.equal(first.line, undefined, 'no record, no row to highlight');
    assert.ok(first.rows.every((r) => session.messages[0]!.records.includes(r.line - 1)));
    const gone = model.focus({ message: session.messages.length, record: 3, kind: 'reply', snippet: { text: 'x', start: 0, end: 1 } });
    assert.deepEqual({ found: gone.found, rows: gone.rows.length }, { found: false, rows: 0 }, 'a message the session no longer has');
    assert.deepEqual(JSON.parse(JSON.stringify(gone)), gone);
  }
});
