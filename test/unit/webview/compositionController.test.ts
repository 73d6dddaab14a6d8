// The panel host's logic: nothing posted before `ready`, replay on re-ready, stale and bad messages dropped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCompositionModel } from '../../../src/node/compositionView';
import type { CleanupOptions } from '../../../src/core/cleanup/types';
import type { AnalysisDefaults } from '../../../src/node/analysisView';
import type { ToWebview } from '../../../src/protocol/messages';
import { CompositionController } from '../../../src/vscode/compositionController';
import { CLAUDE_SAMPLE } from '../../support/fixtures';
import { waitUntil, WAIT_MS } from '../../support/waits';

const DEFAULTS: AnalysisDefaults = { threshold: 150_000, cleanup: { keepRecentTurns: 6, keepRecentTokens: 0, rules: { 'tool-records': { params: { headLines: 5 } } } } };

function setup(load = loadCompositionModel, defaults: () => AnalysisDefaults = () => DEFAULTS) {
  const posted: ToWebview[] = [];
  const revealed: [string, number][] = [];
  const titles: string[] = [];
  const diffs: [string, CleanupOptions, boolean?][] = [];
  // Recomputations run when the test says so, like setImmediate firing after a burst of messages.
  const deferred: (() => void)[] = [];
  const c = new CompositionController(CLAUDE_SAMPLE, {
    post: (m) => posted.push(m),
    load,
    reveal: async (file, line) => { revealed.push([file, line]); },
    setTitle: (t) => titles.push(t),
    defaults,
    openDiff: async (file, cleanup, continueIn) => { diffs.push(continueIn ? [file, cleanup, continueIn] : [file, cleanup]); },
    defer: (run) => deferred.push(run),
  });
  const flush = (): void => { while (deferred.length) deferred.shift()!(); };
  return { c, posted, revealed, titles, diffs, flush };
}

/** Waits for the controller's own (un-awaitable) reload; generous, as other suites read files in parallel. */
const until = (done: () => boolean): Promise<void> => waitUntil(done, 'the controller\'s reload to post its answer', WAIT_MS, 5);

const loadedId = (posted: readonly ToWebview[]): string => {
  const m = posted.find((p) => p.type === 'sessionLoaded');
  assert.ok(m?.type === 'sessionLoaded');
  return m.sessionId;
};

test('nothing is posted before ready; ready gets only the latest status', async () => {
  const { c, posted, titles } = setup();
  await c.load();
  assert.equal(posted.length, 0);
  c.receive({ type: 'ready' });
  assert.deepEqual(posted.map((p) => p.type), ['sessionLoaded']);
  assert.match(titles[0]!, /^Task 1: investigate/);
});

test('a webview that loads before the host finishes sees loading, then loaded', async () => {
  const { c, posted } = setup();
  const loading = c.load();
  c.receive({ type: 'ready' });
  await loading;
  assert.deepEqual(posted.map((p) => p.type), ['sessionLoading', 'sessionLoaded']);
});

test('hidden then ready again: the session is replayed, nothing is posted while hidden', async () => {
  const { c, posted } = setup();
  await c.load();
  c.receive({ type: 'ready' });
  c.hidden();
  c.receive({ type: 'requestItems', sessionId: loadedId(posted), requestId: 1, filter: { by: 'kind', value: 'user' }, offset: 0, limit: 10 });
  assert.equal(posted.length, 1);
  c.receive({ type: 'ready' });
  assert.deepEqual(posted.map((p) => p.type), ['sessionLoaded', 'sessionLoaded']);
});

test('requestItems is answered with the page; jumpToSource reveals the line', async () => {
  const { c, posted, revealed } = setup();
  await c.load();
  c.receive({ type: 'ready' });
  const sessionId = loadedId(posted);
  c.receive({ type: 'requestItems', sessionId, requestId: 7, filter: { by: 'tool', value: 'Read' }, offset: 1, limit: 2 });
  const reply = posted.at(-1)!;
  assert.ok(reply.type === 'itemsLoaded');
  assert.equal(reply.requestId, 7);
  assert.equal(reply.offset, 1);
  assert.equal(reply.items.length, 2);
  assert.ok(reply.items.every((i) => i.tool === 'Read'));
  c.receive({ type: 'jumpToSource', sessionId, line: 44 });
  assert.deepEqual(revealed, [[CLAUDE_SAMPLE, 44]]);
});

test('after a reload, requests for the old session id are dropped', async () => {
  const { c, posted, revealed } = setup();
  await c.load();
  c.receive({ type: 'ready' });
  const old = loadedId(posted);
  c.receive({ type: 'reload' });
  await until(() => posted.filter((p) => p.type === 'sessionLoaded').length === 2);
  const fresh = posted.filter((p) => p.type === 'sessionLoaded').at(-1);
  assert.ok(fresh?.type === 'sessionLoaded' && fresh.sessionId !== old);
  const before = posted.length;
  c.receive({ type: 'requestItems', sessionId: old, requestId: 1, filter: { by: 'kind', value: 'user' }, offset: 0, limit: 10 });
  c.receive({ type: 'jumpToSource', sessionId: old, line: 3 });
  assert.equal(posted.length, before);
  assert.deepEqual(revealed, []);
});

test('malformed messages are ignored', async () => {
  const { c, posted, revealed } = setup();
  await c.load();
  for (const m of [null, 'ready', { type: 'jumpToSource', line: 3 }, { type: 'eval', code: '1' }]) c.receive(m);
  assert.equal(posted.length, 0);
  assert.deepEqual(revealed, []);
});

test('a failed load is reported to the webview', async () => {
  const { c, posted } = setup(async () => { throw new Error('no such file: x.jsonl'); });
  c.receive({ type: 'ready' });
  await c.load();
  assert.deepEqual(posted.at(-1), { type: 'sessionFailed', file: CLAUDE_SAMPLE, message: 'no such file: x.jsonl' });
});

async function loaded(defaults?: () => AnalysisDefaults) {
  const s = setup(loadCompositionModel, defaults);
  await s.c.load();
  s.c.receive({ type: 'ready' });
  return { ...s, sessionId: loadedId(s.posted) };
}

const replies = <T extends ToWebview['type']>(posted: readonly ToWebview[], type: T) =>
  posted.filter((p): p is Extract<ToWebview, { type: T }> => p.type === type);

test('simulate: without a policy the settings are used; with one, the same engine answers it', async () => {
  const { c, posted, sessionId, flush } = await loaded();
  c.receive({ type: 'simulate', sessionId, requestId: 0 });
  flush();
  const first = replies(posted, 'simulationLoaded')[0]!;
  assert.deepEqual(first.simulation.policy, { threshold: 150_000, keepRecentTurns: 6, summary: true, summaryTokens: 2_000 });
  assert.equal(first.simulation.totals.compactions, 0); // the fixture peaks near 108k
  c.receive({ type: 'simulate', sessionId, requestId: 1, policy: { threshold: 50_000, keepRecentTurns: 4, summary: true, summaryTokens: 2_000 } });
  flush();
  const second = replies(posted, 'simulationLoaded')[1]!;
  assert.equal(second.requestId, 1);
  assert.ok(second.simulation.totals.compactions > 0);
  assert.ok(second.simulation.totals.billedInputWith < second.simulation.totals.billedInputWithout);
  const sum = second.simulation.turns.reduce((a, t) => a + t.contextTokensWithPolicy + t.summaryInput, 0);
  assert.equal(sum, second.simulation.totals.billedInputWith);
});

test('a burst of requests is computed once, for the latest; an older requestId arriving late is dropped', async () => {
  const { c, posted, sessionId, flush } = await loaded();
  for (const [requestId, threshold] of [[1, 60_000], [2, 70_000], [3, 80_000]] as const) {
    c.receive({ type: 'simulate', sessionId, requestId, policy: { threshold, keepRecentTurns: 6, summary: true, summaryTokens: 2_000 } });
  }
  flush();
  assert.deepEqual(replies(posted, 'simulationLoaded').map((r) => [r.requestId, r.simulation.policy.threshold]), [[3, 80_000]]);
  c.receive({ type: 'simulate', sessionId, requestId: 2, policy: { threshold: 70_000, keepRecentTurns: 6, summary: true, summaryTokens: 2_000 } });
  c.receive({ type: 'previewCleanup', sessionId, requestId: 5 });
  c.receive({ type: 'previewCleanup', sessionId, requestId: 4 });
  flush();
  assert.equal(replies(posted, 'simulationLoaded').length, 1);
  assert.deepEqual(replies(posted, 'cleanupPreviewed').map((r) => r.requestId), [5]);
  // A new webview instance (hidden, shown again) numbers its requests from 0 again.
  c.hidden();
  c.receive({ type: 'ready' });
  c.receive({ type: 'simulate', sessionId, requestId: 0 });
  flush();
  assert.deepEqual(replies(posted, 'simulationLoaded').map((r) => r.requestId), [3, 0]);
});

test('requests and openDiff for another session id are ignored', async () => {
  const { c, posted, diffs, flush } = await loaded();
  const before = posted.length;
  c.receive({ type: 'simulate', sessionId: 'other#9', requestId: 1 });
  c.receive({ type: 'previewCleanup', sessionId: 'other#9', requestId: 1 });
  c.receive({ type: 'openDiff', sessionId: 'other#9', options: { keepRecentTurns: 6, keepRecentTokens: 0, rules: {} } });
  flush();
  assert.equal(posted.length, before);
  assert.deepEqual(diffs, []);
});

test('policy numbers are clamped; non-finite ones are rejected at the boundary', async () => {
  const { c, posted, sessionId, flush } = await loaded();
  c.receive({ type: 'simulate', sessionId, requestId: 1, policy: { threshold: 5, keepRecentTurns: 999.4, summary: false, summaryTokens: -20 } });
  flush();
  assert.deepEqual(replies(posted, 'simulationLoaded')[0]!.simulation.policy, { threshold: 20_000, keepRecentTurns: 30, summary: false, summaryTokens: 0 });
  for (const threshold of [Infinity, Number.NaN]) c.receive({ type: 'simulate', sessionId, requestId: 2, policy: { threshold, keepRecentTurns: 1, summary: true, summaryTokens: 1 } });
  flush();
  assert.equal(replies(posted, 'simulationLoaded').length, 1);
});

test('previewCleanup: unknown rule ids are ignored, a rule switched off saves nothing, protection by tokens', async () => {
  const { c, posted, sessionId, flush } = await loaded();
  c.receive({ type: 'previewCleanup', sessionId, requestId: 1 });
  flush();
  const all = replies(posted, 'cleanupPreviewed')[0]!.preview;
  const toolRecords = all.rules.find((r) => r.id === 'tool-records')!;
  assert.ok(toolRecords.enabled && toolRecords.tokensSaved > 10_000 && toolRecords.applied > 0);
  c.receive({ type: 'previewCleanup', sessionId, requestId: 2, options: { keepRecentTurns: 6, keepRecentTokens: 0, rules: { 'tool-records': false, 'no-such-rule': false } as never } });
  flush();
  const off = replies(posted, 'cleanupPreviewed')[1]!.preview;
  assert.deepEqual(Object.keys(off.options.rules), all.rules.map((r) => r.id));
  assert.equal(off.options.rules['tool-records'], false);
  const offRow = off.rules.find((r) => r.id === 'tool-records')!;
  assert.deepEqual([offRow.enabled, offRow.tokensSaved, offRow.applied], [false, 0, 0]);
  assert.equal(off.before, all.before);
  assert.ok(off.after > all.after + 10_000);
  // The rows add up to the reduction (same calibration; rounding aside).
  assert.ok(Math.abs(all.rules.reduce((a, r) => a + r.tokensSaved, 0) - (all.before - all.after)) <= all.rules.length + 1);
  c.receive({ type: 'previewCleanup', sessionId, requestId: 3, options: { keepRecentTurns: 6, keepRecentTokens: 30_000, rules: {} } });
  flush();
  const byTokens = replies(posted, 'cleanupPreviewed')[2]!.preview;
  assert.equal(byTokens.options.keepRecentTokens, 30_000);
  assert.ok(byTokens.protected.turns > 0 && byTokens.protected.tokens <= 30_000 * 1.5);
  assert.ok(byTokens.identifierRecall && byTokens.identifierRecall.total > 0);
});

test('openDiff runs the compaction with the panel\'s switches over the settings\' rule parameters', async () => {
  const { c, diffs, sessionId } = await loaded();
  c.receive({ type: 'openDiff', sessionId, options: { keepRecentTurns: 99, keepRecentTokens: 0, rules: { 'tool-records': false, 'drop-reasoning': true, bogus: true } as never } });
  assert.equal(diffs.length, 1);
  const [file, options] = diffs[0]!;
  assert.equal(file, CLAUDE_SAMPLE);
  assert.equal(options.keepRecentTurns, 30);
  assert.deepEqual(options.rules?.['tool-records'], { enabled: false, params: { headLines: 5 } });
  assert.deepEqual(options.rules?.['drop-reasoning'], { enabled: true });
  assert.equal(Object.keys(options.rules ?? {}).includes('bogus'), false);
});

test('Continue in another agent… runs the same flow for another agent, with the panel\'s options', async () => {
  const { c, diffs, sessionId } = await loaded();
  c.receive({ type: 'openDiff', sessionId, options: { keepRecentTurns: 4, keepRecentTokens: 0, rules: {} }, continueIn: true });
  c.receive({ type: 'openDiff', sessionId, options: { keepRecentTurns: 4, keepRecentTokens: 0, rules: {} } });
  assert.deepEqual(diffs.map((d) => d[2] === true), [true, false]);
  assert.equal(diffs[0]![1].keepRecentTurns, 4);
});

test('an engine failure is answered with analysisFailed, not silence', async () => {
  let fail = false;
  const { c, posted, sessionId, flush } = await loaded(() => { if (fail) throw new Error('bad settings'); return DEFAULTS; });
  fail = true;
  c.receive({ type: 'simulate', sessionId, requestId: 1 });
  flush();
  assert.deepEqual(posted.at(-1), { type: 'analysisFailed', sessionId, requestId: 1, what: 'simulate', message: 'bad settings' });
});

test('a search match asked for before the load is posted after it, again on each ready, and its ack is scoped', async () => {
  const shown: number[] = [];
  const posted: ToWebview[] = [];
  const c = new CompositionController(CLAUDE_SAMPLE, {
    post: (m) => posted.push(m), load: loadCompositionModel, reveal: async () => undefined, setTitle: () => undefined,
    defaults: () => DEFAULTS, openDiff: async () => undefined, focusShown: (m) => shown.push(m),
  });
  const target = { message: 5, record: 7, kind: 'tool result', snippet: { text: 'a b c', start: 2, end: 3 } };
  c.receive({ type: 'ready' });
  c.focus(target); // the panel was just created: nothing loaded yet
  assert.equal(posted.length, 0);
  await c.load();
  assert.deepEqual(posted.map((p) => p.type), ['sessionLoading', 'sessionLoaded', 'messageFocused']);
  const focused = posted[2];
  assert.ok(focused?.type === 'messageFocused');
  assert.deepEqual(focused.focus.target, target);
  assert.equal(focused.focus.found, true);
  const id = loadedId(posted);
  assert.equal(focused.sessionId, id);
  // The webview was hidden and shown: the session and the match come back together.
  c.hidden();
  c.receive({ type: 'ready' });
  assert.deepEqual(posted.slice(3).map((p) => p.type), ['sessionLoaded', 'messageFocused']);
  // Another match in the open panel replaces it at once.
  c.focus({ ...target, message: 9 });
  const last = posted.at(-1);
  assert.ok(last?.type === 'messageFocused' && last.focus.target.message === 9);
  c.receive({ type: 'focusShown', sessionId: 'stale#0', message: 9 });
  c.receive({ type: 'focusShown', sessionId: id, message: -1 });
  assert.deepEqual(shown, [], 'a stale or malformed ack is dropped');
  c.receive({ type: 'focusShown', sessionId: id, message: 9 });
  assert.deepEqual(shown, [9]);
});
