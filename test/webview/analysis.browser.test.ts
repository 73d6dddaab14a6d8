// The Simulator and Cleanup tabs in real Chromium, answered by the panel's controller running the real engines.
import { TERMS_LINE } from '../../src/core/inspect/terms';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { RULE_IDS } from '../../src/core/cleanup/types';
import { cleanupPreview, simulationView } from '../../src/node/analysisView';
import { buildCompositionModel, loadCompositionModel, type CompositionModel } from '../../src/node/compositionView';
import type { FromWebview, WebviewState } from '../../src/protocol/messages';
import { CLAUDE_SAMPLE } from '../support/fixtures';
import { waitUntil } from '../support/waits';
import { openWebview, startHarness, TEST_DEFAULTS, waitingFor, type Harness, type WebviewPage } from './harness';
import { largeSession } from './syntheticSession';

declare const window: any;
declare const requestAnimationFrame: (cb: () => void) => number;

let harness: Harness;
let claude: CompositionModel;
const SHOTS = 'test-results';

before(async () => {
  await mkdir(SHOTS, { recursive: true });
  [harness, claude] = await Promise.all([startHarness(), loadCompositionModel(CLAUDE_SAMPLE, (id) => `${id}#1`)]);
});
after(() => harness.close());

async function opened(model: CompositionModel, t: { after(fn: () => Promise<void>): void }, state?: WebviewState): Promise<WebviewPage> {
  const w = await openWebview(harness, model, state);
  t.after(() => w.close());
  await w.page.waitForSelector('.session-header');
  return w;
}

const all = <T extends FromWebview['type']>(w: WebviewPage, type: T) => w.posted.filter((m): m is Extract<FromWebview, { type: T }> => m.type === type);
/** Waits until the host answered the webview's latest request of `type` (and the page handled it). */
async function answered(w: WebviewPage, type: 'simulate' | 'previewCleanup', count: number): Promise<void> {
  const reply = type === 'simulate' ? 'simulationLoaded' : 'cleanupPreviewed';
  await waitUntil(() => {
    const last = all(w, type).at(-1);
    return all(w, type).length >= count && !!last && w.received.some((m) => m.type === reply && m.requestId === last.requestId);
  }, `the host's ${reply} for the webview's ${type} #${count} (${all(w, type).length} posted so far)`);
  await w.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
}

const stat = (w: WebviewPage, key: string): Promise<string | null> => w.page.textContent(`.analysis:not([hidden]) [data-stat="${key}"] .stat-value`).catch(() => null);

test('Simulator: switching renders both curves and the threshold; a new threshold is posted once and redrawn', async (t) => {
  const w = await opened(claude, t);
  assert.equal(all(w, 'simulate').length, 0, 'nothing is simulated before the tab is opened');
  await w.page.click('vscode-tab-header[data-tab="simulator"]');
  await answered(w, 'simulate', 1);
  assert.equal(all(w, 'simulate')[0]!.policy, undefined, 'the first request lets the host use the settings');
  await w.page.waitForSelector('.sim-context path.sim-with');
  for (const sel of ['.sim-context path.sim-without', '.sim-context path.sim-with', '.sim-context line.sim-threshold', '.sim-billed path.sim-without', '.sim-billed path.sim-with']) {
    assert.equal(await w.page.locator(sel).count(), 1, sel);
  }
  assert.equal(await w.page.inputValue('vscode-textfield[data-control="threshold"] input'), '150000');
  assert.equal(await w.page.locator('.sim-compaction').count(), 0);
  const y150 = Number(await w.page.getAttribute('.sim-threshold', 'y1'));

  // Typing is one burst: debounced into a single request with the final value.
  await w.page.fill('vscode-textfield[data-control="threshold"] input', '');
  await w.page.type('vscode-textfield[data-control="threshold"] input', '50000', { delay: 20 });
  await answered(w, 'simulate', 2);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(all(w, 'simulate').length, 2);
  const policy = all(w, 'simulate')[1]!.policy;
  assert.deepEqual(policy, { threshold: 50_000, keepRecentTurns: 6, summary: true, summaryTokens: 2_000 });
  const expected = simulationView(claude.session, policy!, TEST_DEFAULTS.cleanup);
  assert.ok(expected.totals.compactions > 0);
  await waitingFor(`the compactions stat to read ${expected.totals.compactions}`,
    w.page.waitForFunction((n) => (window.document.querySelector('[data-stat="compactions"] .stat-value')?.textContent ?? '') === String(n), expected.totals.compactions));
  assert.ok(Number(await w.page.getAttribute('.sim-threshold', 'y1')) > y150, 'a lower threshold sits lower');
  assert.ok(await w.page.locator('.sim-compaction').count() > 0);
  const saved = 1 - expected.totals.billedInputWith / expected.totals.billedInputWithout;
  assert.equal(await stat(w, 'saved'), `${(saved * 100).toFixed(1)}%`);
  assert.equal(await w.page.inputValue('.slider[data-control="threshold-slider"]'), '50000', 'slider follows the field');
  await w.page.screenshot({ path: `${SHOTS}/webview-simulator.png`, fullPage: true });
  assert.deepEqual(await w.cspViolations(), []);
});

test('Simulator: an older answer arriving late is dropped; the tab and controls survive a reload of the webview', async (t) => {
  const w = await opened(claude, t);
  await w.page.click('vscode-tab-header[data-tab="simulator"]');
  await answered(w, 'simulate', 1);
  await w.page.fill('vscode-textfield[data-control="keep-recent"] input', '2');
  await answered(w, 'simulate', 2);
  const label = await w.page.textContent('.sim-threshold-label');
  const stale = w.received.find((m) => m.type === 'simulationLoaded' && m.requestId === 0)!;
  assert.ok(stale.type === 'simulationLoaded');
  await w.send({ ...stale, simulation: { ...stale.simulation, policy: { ...stale.simulation.policy, threshold: 300_000 } } });
  await w.page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  assert.equal(await w.page.textContent('.sim-threshold-label'), label);

  const state: WebviewState = await w.page.evaluate(() => window.__state);
  assert.deepEqual({ tab: state.tab, policy: state.policy }, { tab: 'simulator', policy: { threshold: 150_000, keepRecentTurns: 2, summary: true, summaryTokens: 2_000 } });
  const again = await openWebview(harness, claude, state);
  t.after(() => again.close());
  await answered(again, 'simulate', 1);
  assert.deepEqual(all(again, 'simulate')[0]!.policy, state.policy, 'reopened on the Simulator, asking for the saved policy');
  assert.equal(await again.page.inputValue('vscode-textfield[data-control="keep-recent"] input'), '2');
  assert.equal(await again.page.isVisible('.sim-context'), true);
});

test('Cleanup: every rule with its savings; switching tool-records off recomputes; Open diff posts the options', async (t) => {
  const w = await opened(claude, t);
  await w.page.click('vscode-tab-header[data-tab="cleanup"]');
  await answered(w, 'previewCleanup', 1);
  await w.page.waitForSelector('.rule-row[data-rule]');
  assert.deepEqual(await w.page.$$eval('.rule-row[data-rule]', (els) => els.map((e) => e.getAttribute('data-rule'))), [...RULE_IDS]);
  const preview = cleanupPreview(claude.session, { keepRecentTurns: 6, keepRecentTokens: 0, rules: {} }, TEST_DEFAULTS.cleanup);
  for (const r of preview.rules) {
    assert.equal(await w.page.textContent(`.rule-row[data-rule="${r.id}"] .rule-saved .num`), r.tokensSaved.toLocaleString('en-US'), r.id);
    assert.equal(await w.page.textContent(`.rule-row[data-rule="${r.id}"] .rule-applied`), String(r.applied), r.id);
  }
  const reduction = await stat(w, 'reduction');
  assert.equal(reduction, `${(preview.reduction * 100).toFixed(1)}%`);
  assert.equal(await stat(w, 'history-reduction'), `${(preview.history.reduction * 100).toFixed(1)}%`, 'the history cut is shown beside the request cut');
  assert.ok(preview.history.reduction > preview.reduction && preview.harnessTokens > 0);
  assert.match((await stat(w, 'recall')) ?? '', /%$/);
  // Rules by their names, harness and history defined in one line.
  for (const r of preview.rules) assert.equal(await w.page.$eval(`vscode-checkbox[data-rule-toggle="${r.id}"]`, (e) => (e as unknown as { label: string }).label), r.label, r.id);
  assert.equal(await w.page.textContent('.cleanup .note.terms'), TERMS_LINE);
  assert.equal(await w.page.textContent('vscode-button[data-action="open-diff"]'), 'Compact with these options…');
  await w.page.screenshot({ path: `${SHOTS}/webview-cleanup.png`, fullPage: true });

  await w.page.click('vscode-checkbox[data-rule-toggle="tool-records"]');
  await answered(w, 'previewCleanup', 2);
  const options = all(w, 'previewCleanup')[1]!.options!;
  assert.equal(options.rules['tool-records'], false);
  assert.deepEqual(Object.keys(options.rules).sort(), [...RULE_IDS].sort());
  await w.page.waitForSelector('.rule-row.off[data-rule="tool-records"]');
  assert.equal(await w.page.textContent('.rule-row[data-rule="tool-records"] .rule-saved .num'), '0');
  const off = cleanupPreview(claude.session, options, TEST_DEFAULTS.cleanup);
  assert.equal(await stat(w, 'reduction'), `${(off.reduction * 100).toFixed(1)}%`);
  assert.notEqual(await stat(w, 'reduction'), reduction);

  const [postedBefore, diffsBefore] = [all(w, 'openDiff').length, w.diffs.length];
  await w.page.click('vscode-button[data-action="open-diff"]');
  await waitUntil(() => all(w, 'openDiff').length > postedBefore && w.diffs.length > diffsBefore, 'the webview\'s openDiff and the host opening the diff');
  const diff = all(w, 'openDiff').at(-1);
  assert.deepEqual(diff, { type: 'openDiff', sessionId: claude.view.sessionId, options });
  assert.deepEqual(w.diffs.at(-1)?.rules?.['tool-records'], { enabled: false });
  // Continue in another agent…: the same options, the flow for another agent.
  assert.equal(await w.page.textContent('vscode-button[data-action="continue-in"]'), 'Continue in another agent…');
  const postedNow = all(w, 'openDiff').length;
  await w.page.click('vscode-button[data-action="continue-in"]');
  await waitUntil(() => all(w, 'openDiff').length > postedNow, 'the webview\'s openDiff for another agent');
  assert.deepEqual(all(w, 'openDiff').at(-1), { type: 'openDiff', sessionId: claude.view.sessionId, options, continueIn: true });
  assert.deepEqual(await w.cspViolations(), []);
});

test('10,000-request simulation: rendered downsampled without freezing the page', async (t) => {
  const model = buildCompositionModel(largeSession(20_000), '/tmp/large.jsonl', 'large#1');
  const state: WebviewState = { file: '/tmp/large.jsonl', tab: 'simulator', policy: { threshold: 400_000, keepRecentTurns: 6, summary: true, summaryTokens: 2_000 } };
  const w = await opened(model, t, state);
  await answered(w, 'simulate', 1);
  const reply = w.received.find((m) => m.type === 'simulationLoaded');
  assert.ok(reply?.type === 'simulationLoaded' && reply.simulation.turns.length === 10_000 && reply.simulation.totals.compactions > 10);
  await w.page.waitForSelector('.sim-context path.sim-with');
  const plotWidth = await w.page.$eval('.sim-context', (s) => Number(s.getAttribute('width')));
  for (const sel of ['.sim-context path.sim-with', '.sim-context path.sim-without', '.sim-billed path.sim-with']) {
    const vertices = await w.page.$eval(sel, (p) => (p.getAttribute('d')!.match(/[ML]/g) ?? []).length);
    assert.ok(vertices <= 2 * plotWidth && vertices > 50, `${sel}: ${vertices} vertices for ${plotWidth}px`);
  }
  const markers = await w.page.locator('.sim-compaction').count();
  assert.ok(markers > 10 && markers <= plotWidth / 3, `${markers} markers`);
  // The page still answers (how fast is `npm run bench -- webview`'s figure, never asserted here).
  await w.nextFrame();
  const nodes = await w.domNodes();
  assert.ok(nodes < 2_000, `${nodes} elements in the page for 10,000 requests`);
  t.diagnostic(`10k simulation: ${markers} markers, ${nodes} elements, longest task ${Math.round(await w.longestTask())} ms`);
  await w.page.screenshot({ path: `${SHOTS}/webview-simulator-10k.png` });
});
