// The Composition webview in real Chromium, under the panel's CSP, fed by compositionView from fixtures.
import { TERMS_LINE } from '../../src/core/inspect/terms';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { buildCompositionModel, loadCompositionModel, type CompositionModel } from '../../src/node/compositionView';
import type { WebviewState } from '../../src/protocol/messages';
import { searchEntries } from '../../src/core/search/extract';
import { readTranscriptFile } from '../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../support/fixtures';
import { openWebview, startHarness, waitingFor, type Harness, type WebviewPage } from './harness';
import { hostileSession, largeSession, XSS_PAYLOADS } from './syntheticSession';

declare const window: any;
declare const document: any;

let harness: Harness;
let claude: CompositionModel;
const SHOTS = 'test-results';

before(async () => {
  await mkdir(SHOTS, { recursive: true });
  [harness, claude] = await Promise.all([startHarness(), loadCompositionModel(CLAUDE_SAMPLE, (id) => `${id}#1`)]);
});
after(() => harness.close());

async function opened(model: CompositionModel, t: { after(fn: () => Promise<void>): void }): Promise<WebviewPage> {
  const w = await openWebview(harness, model);
  t.after(() => w.close());
  await w.page.waitForSelector('.composition .kind-bar');
  return w;
}

const lastPosted = (w: WebviewPage, type: string): any => w.posted.filter((m) => m.type === type).at(-1);

test('handshake: the webview says ready first and saves the file for the serializer', async (t) => {
  const w = await opened(claude, t);
  assert.deepEqual(w.posted[0], { type: 'ready' });
  assert.deepEqual(await w.page.evaluate(() => window.__state), { file: CLAUDE_SAMPLE });
  assert.deepEqual(await w.cspViolations(), []);
});

test('Claude Code fixture: a segment per non-zero kind, tools, per-turn points of both sources', async (t) => {
  const w = await opened(claude, t);
  const nonZero = claude.view.byKind.filter((k) => k.tokens > 0).map((k) => k.kind);
  assert.ok(nonZero.length >= 5);
  assert.deepEqual(await w.page.$$eval('.kind-bar rect.seg', (els) => els.map((e) => e.getAttribute('data-kind'))), nonZero);
  const tools = await w.page.$$eval('.tool-row .tool-name', (els) => els.map((e) => e.textContent));
  assert.deepEqual(tools.slice(0, 2), ['Read', 'Bash']);
  assert.equal(await w.page.locator('.turn-line circle.pt-recorded').count(), claude.view.perTurn.filter((p) => p.source === 'recorded').length);
  assert.ok(await w.page.locator('.turn-line circle.pt-estimated').count() > 0);
  assert.equal(await w.page.locator('.turn-line path.trace-recorded').count(), 1);
  assert.equal(await w.page.textContent('.total-num'), claude.view.totals.total.toLocaleString('en-US'));
  assert.ok((await w.page.textContent('.composition .note.terms'))?.endsWith(TERMS_LINE), 'the kinds chart says what the harness and the history are');
  await w.page.screenshot({ path: `${SHOTS}/webview-claude-dark.png`, fullPage: true });
  assert.deepEqual(await w.cspViolations(), []);
});

test('clicking a kind segment posts requestItems and lists that kind\'s items', async (t) => {
  const w = await opened(claude, t);
  await w.page.click('.kind-bar rect[data-kind="tool_result"]');
  await w.page.waitForSelector('.item-list .item-row[data-line]');
  const req = lastPosted(w, 'requestItems');
  assert.deepEqual({ ...req, requestId: 0 }, { type: 'requestItems', sessionId: claude.view.sessionId, requestId: 0, filter: { by: 'kind', value: 'tool_result' }, offset: 0, limit: 200 });
  const kinds = await w.page.$$eval('.item-list .item-row[data-line] .item-kind', (els) => els.map((e) => e.textContent));
  const expected = claude.view.byKind.find((k) => k.kind === 'tool_result')!.items;
  assert.equal(kinds.length, Math.min(expected, kinds.length));
  assert.ok(kinds.length > 0 && kinds.every((k) => k === 'Tool results'));
  assert.match((await w.page.textContent('.segment-items h2'))!, new RegExp(`Tool results — ${expected} items`));
  await w.page.screenshot({ path: `${SHOTS}/webview-claude-segment.png`, fullPage: true });
});

test('clicking a tool lists that tool\'s items; clicking the same tool again closes the list', async (t) => {
  const w = await opened(claude, t);
  await w.page.click('.tool-row[data-tool="Bash"]');
  await w.page.waitForSelector('.item-list .item-row[data-line]');
  assert.deepEqual(lastPosted(w, 'requestItems').filter, { by: 'tool', value: 'Bash' });
  const tools = await w.page.$$eval('.item-list .item-row[data-line] .item-tool', (els) => els.map((e) => e.textContent));
  assert.ok(tools.length > 0 && tools.every((x) => x === 'Bash'));
  await w.page.click('.tool-row[data-tool="Bash"]');
  assert.equal(await w.page.isVisible('.segment-items'), false);
  // Segments work from the keyboard too.
  await w.page.focus('.kind-bar rect[data-kind="user"]');
  await w.page.keyboard.press('Enter');
  assert.deepEqual(lastPosted(w, 'requestItems').filter, { by: 'kind', value: 'user' });
  assert.equal(await w.page.isVisible('.segment-items'), true);
  // The bar is redrawn on selection; focus stays on the segment, so Enter again closes the list.
  assert.equal(await w.page.evaluate(() => document.activeElement?.getAttribute('data-kind')), 'user');
  await w.page.keyboard.press('Enter');
  assert.equal(await w.page.isVisible('.segment-items'), false);
});

test('clicking a top item or a listed item posts jumpToSource with its line', async (t) => {
  const w = await opened(claude, t);
  const third = claude.view.top[2]!;
  await w.page.click(`.composition > section:last-child .item-row[data-line="${third.line}"]`);
  assert.deepEqual(lastPosted(w, 'jumpToSource'), { type: 'jumpToSource', sessionId: claude.view.sessionId, line: third.line });
  await w.page.click('.tool-row[data-tool="Bash"]');
  const first = claude.page({ by: 'tool', value: 'Bash' }, 0, 1).items[0]!;
  await w.page.click(`.item-list .item-row[data-line="${first.line}"]`);
  assert.deepEqual(lastPosted(w, 'jumpToSource'), { type: 'jumpToSource', sessionId: claude.view.sessionId, line: first.line });
});

test('the selected segment is saved in the state and reopened from it', async (t) => {
  const w = await opened(claude, t);
  await w.page.click('.tool-row[data-tool="Bash"]');
  const state: WebviewState = await w.page.evaluate(() => window.__state);
  assert.deepEqual(state, { file: CLAUDE_SAMPLE, selected: { by: 'tool', value: 'Bash' } });
  const again = await openWebview(harness, claude, state as WebviewState);
  t.after(() => again.close());
  await again.page.waitForSelector('.item-list .item-row[data-line]');
  assert.deepEqual(lastPosted(again, 'requestItems').filter, { by: 'tool', value: 'Bash' });
  assert.equal(await again.page.getAttribute('.tool-row[data-tool="Bash"]', 'aria-pressed'), 'true');
  // A state saved for another file, or for a tool this session lacks, opens no list.
  const other = await openWebview(harness, claude, { file: CLAUDE_SAMPLE, selected: { by: 'tool', value: 'NoSuchTool' } });
  t.after(() => other.close());
  await other.page.waitForSelector('.kind-bar');
  assert.equal(lastPosted(other, 'requestItems'), undefined);
  assert.deepEqual(await other.page.evaluate(() => window.__state), { file: CLAUDE_SAMPLE });
});

test('Codex fixture renders its tools', async (t) => {
  const codex = await loadCompositionModel(CODEX_SAMPLE, (id) => `${id}#1`);
  const w = await opened(codex, t);
  const tools = await w.page.$$eval('.tool-row .tool-name', (els) => els.map((e) => e.textContent));
  assert.deepEqual(tools, codex.view.byTool.map((x) => x.tool));
  assert.ok(tools.includes('exec_command'));
  assert.deepEqual(await w.cspViolations(), []);
});

test('10,000 messages: charts downsampled, list virtualized, the page bounded in elements', async (t) => {
  const model = buildCompositionModel(largeSession(10_000), '/tmp/large.jsonl', 'large#1');
  assert.equal(model.view.perTurn.length, 10_000);
  const w = await opened(model, t);
  assert.equal(await w.page.locator('.turn-line circle').count(), 0);
  const vertices = await w.page.$eval('.turn-line path.trace-all', (p) => (p.getAttribute('d')!.match(/[ML]/g) ?? []).length);
  const plotWidth = await w.page.$eval('.turn-line', (s) => Number(s.getAttribute('width')));
  assert.ok(vertices <= 2 * plotWidth && vertices > 100, `${vertices} vertices for ${plotWidth}px`);

  await w.page.click('.kind-bar rect[data-kind="tool_result"]');
  await w.page.waitForSelector('.item-list .item-row[data-line]');
  // Scroll to the middle: the page there is fetched on demand and only visible rows exist.
  await w.page.$eval('.item-viewport', (v) => { v.scrollTop = 2_500 * 26; });
  await waitingFor('the list\'s row 2,500 to be rendered after the scroll',
    w.page.waitForFunction(() => [...document.querySelectorAll('.item-list .item-row[data-line]')].some((r: any) => r.style.top === `${2_500 * 26}px`)));
  const rows = await w.page.locator('.item-spacer > .item-row').count();
  assert.ok(rows > 5 && rows < 60, `${rows} rows in the DOM`);
  const offsets = w.posted.filter((m) => m.type === 'requestItems').map((m) => (m.type === 'requestItems' ? m.offset : -1));
  assert.ok(offsets.includes(2_400) && offsets.length < 6, JSON.stringify(offsets));
  // Still answering after all of that, with the page's size independent of the 10,000 messages (render time and the
  // longest task are `npm run bench -- webview`'s figures, against a small session in the same run: never asserted here).
  await w.nextFrame();
  const nodes = await w.domNodes();
  assert.ok(nodes < 2_000, `${nodes} elements in the page for 10,000 messages`);
  t.diagnostic(`10k: ${nodes} elements, ${rows} rows in the DOM, longest task ${Math.round(await w.longestTask())} ms`);
  await w.page.screenshot({ path: `${SHOTS}/webview-10k.png` });
});

test('transcript text with markup renders as text and runs nothing', async (t) => {
  const model = buildCompositionModel(hostileSession(), '/tmp/<img src=x onerror="window.__pwned=3">.jsonl', 'hostile#1');
  const w = await opened(model, t);
  await w.page.click('.kind-bar rect[data-kind="tool_result"]');
  await w.page.waitForSelector('.item-list .item-row[data-line]');
  const text = await w.page.textContent('#app');
  for (const payload of XSS_PAYLOADS) assert.ok(text!.includes(payload), `missing literal ${payload}`);
  assert.equal(await w.page.textContent('h1'), hostileSession().title);
  assert.equal(await w.page.locator('img').count(), 0);
  assert.equal(await w.page.locator('script').count(), 1); // just the bundle
  assert.equal(await w.page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(await w.cspViolations(), []);
});

test('a search match: the Composition tab comes back, the matched row is highlighted in view, the host is told; markup stays text', async (t) => {
  const { session } = await readTranscriptFile(CLAUDE_SAMPLE);
  // A tool result far down the session: the card must scroll to it, whatever tab was open.
  const entry = searchEntries(session).filter((e) => e.kind === 'tool result').at(-1)!;
  const w = await opened(claude, t);
  await w.page.click('vscode-tab-header[data-tab="simulator"]');
  const text = '<img src=x onerror="window.__pwned=4"> found HERE now';
  const snippet = { text, start: text.indexOf('HERE'), end: text.indexOf('HERE') + 4 };
  await w.send({ type: 'messageFocused', sessionId: claude.view.sessionId, focus: claude.focus({ message: entry.message, record: entry.record, kind: 'tool result', snippet }) });
  for (let i = 0; i < 200 && !w.posted.some((m) => m.type === 'focusShown'); i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(lastPosted(w, 'focusShown'), { type: 'focusShown', sessionId: claude.view.sessionId, message: entry.message });
  assert.equal(await w.page.isVisible('.composition .focus-card'), true, 'the Composition tab is shown again');
  assert.match((await w.page.textContent('.focus-card h2'))!, new RegExp(`^Search match — message ${entry.message + 1} of ${session.messages.length} · tool result`));
  assert.equal(await w.page.textContent('.focus-card mark'), 'HERE');
  assert.equal(await w.page.getAttribute('.focus-card .item-row.hit', 'data-line'), String(entry.record + 1));
  assert.equal(await w.page.locator('.focus-card .item-row.hit').count(), 1);
  const box = await w.page.locator('.focus-card .item-row.hit').boundingBox();
  const height = await w.page.evaluate(() => window.innerHeight);
  assert.ok(box && box.y >= 0 && box.y + box.height <= height, `the matched row is in view: ${JSON.stringify(box)} of ${height}`);
  assert.equal(await w.page.evaluate(() => document.activeElement?.getAttribute('data-line')), String(entry.record + 1), 'keyboard focus on the matched row');
  assert.equal(await w.page.locator('img').count(), 0);
  assert.equal(await w.page.evaluate(() => window.__pwned), undefined);
  await w.page.screenshot({ path: `${SHOTS}/webview-search-match.png` });
  // Closing the card leaves the charts.
  await w.page.click('.focus-close');
  assert.equal(await w.page.locator('.focus-card').count(), 0);
  assert.deepEqual(await w.cspViolations(), []);
});
