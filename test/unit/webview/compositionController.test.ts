// The panel host's logic: nothing posted before `ready`, replay on re-ready, stale and bad messages dropped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCompositionModel } from '../../../src/node/compositionView';
import type { ToWebview } from '../../../src/protocol/messages';
import { CompositionController } from '../../../src/vscode/compositionController';
import { CLAUDE_SAMPLE } from '../../support/fixtures';

function setup(load = loadCompositionModel) {
  const posted: ToWebview[] = [];
  const revealed: [string, number][] = [];
  const titles: string[] = [];
  const c = new CompositionController(CLAUDE_SAMPLE, {
    post: (m) => posted.push(m),
    load,
    reveal: async (file, line) => { revealed.push([file, line]); },
    setTitle: (t) => titles.push(t),
  });
  return { c, posted, revealed, titles };
}

/** Waits for the controller's own (un-awaitable) reload; generous, as other suites read files in parallel. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.ok(done(), 'condition not reached');
}

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
