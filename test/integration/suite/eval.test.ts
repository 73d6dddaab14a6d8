// "Evaluate compaction" in real VS Code: on an agent node of the Sessions view and from the palette, the report
// with its chart opens in the Markdown preview (light and dark); with a provider, the cost question comes first.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension.js';
import type { EvalOutcome } from '../../../src/vscode/evalCommand.js';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import { sessionName } from '../../../src/core/eval/render.js';
import { escapeProse } from '../../../src/core/text/markdown.js';
import { startFakeOpenAI } from '../../support/fakeOpenAI.js';
import { checkScreen, test } from '../harness.js';
import { activeExtension, fixture, waitFor } from './fixtures.js';

async function view(): Promise<ExtensionApi['sessions']> {
  const sessions = ((await activeExtension()).exports as ExtensionApi).sessions;
  if (sessions.state !== 'ready') await sessions.refresh();
  await waitFor(() => sessions.state === 'ready', 20_000);
  return sessions;
}

test('Evaluate compaction on the Claude Code node: every session of it, rows per strategy, the report in the preview', async () => {
  const sessions = await view();
  const claude = sessions.tree.agents.find((a) => a.agent === 'claude-code');
  assert.ok(claude, 'the Claude Code node');
  const files = claude.children.flatMap((p) => p.children.map((s) => s.file)).sort();
  const out = await vscode.commands.executeCommand<EvalOutcome | undefined>(CommandIds.evaluateCompaction, claude, { strategies: ['cleanup', 'summary', 'rolling'], jobs: 2 });
  assert.ok(out, 'the command returns its outcome');
  assert.equal(out.report.files, files.length);
  assert.deepEqual([...new Set(out.report.rows.map((r) => r.file))].sort(), files);
  for (const r of out.report.rows.filter((x) => x.strategy === 'cleanup')) assert.equal(r.status, 'ok', `${r.file}: ${r.failure}`);
  // No provider in the settings: the summary strategy is skipped, not failed.
  assert.ok(out.report.rows.filter((x) => x.strategy === 'summary').every((x) => x.status === 'skipped'));
  assert.match(fs.readFileSync(out.markdown, 'utf8'), /^# Compaction evaluation/);
  assert.match(fs.readFileSync(out.chart, 'utf8'), /<circle /);
  // Sessions by the title the Sessions view shows, not by file name.
  const md = fs.readFileSync(out.markdown, 'utf8');
  // The whole title (up to the report's own cut), not the row's label cut to fit the side bar; escaped as prose.
  const first = claude.children[0]!.children[0]!;
  const title = sessionName({ file: first.file, title: first.title });
  assert.ok(first.title.length > first.label.length, `the row's label is cut: "${first.label}"`);
  assert.ok(md.includes(escapeProse(title)), `the report names "${title}"`);
  // Each title links to its session, relative to the report: the preview opens it.
  const links = [...md.matchAll(/\]\(<([^>]+)>\)/g)].map((m) => path.resolve(path.dirname(out.markdown), decodeURIComponent(m[1]!)));
  assert.deepEqual([...new Set(links)].sort(), files);
  await onScreen(['Compaction evaluation', 'model calls · cost', 'worst first', 'All figures per strategy'], 'eval-report');
  // Beside the Markdown source, as people read a preview next to code: scrolled to the sessions, each table fits.
  // The side bar goes away meanwhile (an earlier test may have widened it), and comes back as it was.
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  try {
    await besideTheSource(out.markdown, title);
  } finally {
    await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
  }
});

async function besideTheSource(markdown: string, title: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(markdown);
  const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
  const at = doc.getText().split('\n').findIndex((l) => l === '## Sessions');
  editor.revealRange(new vscode.Range(at, 0, at, 0), vscode.TextEditorRevealType.AtTop);
  await vscode.commands.executeCommand('markdown.showPreviewToSide', doc.uri);
  await new Promise((r) => setTimeout(r, 1500));
  await onScreen(['worst first', 'pairs ok', title.slice(0, 12)], 'eval-report-side');
  // And the chart, inline: it shrinks to the narrow column with its legend (look at the picture).
  const svgAt = doc.getText().split('\n').findIndex((l) => l.startsWith('<svg '));
  editor.revealRange(new vscode.Range(svgAt - 2, 0, svgAt - 2, 0), vscode.TextEditorRevealType.AtTop);
  await new Promise((r) => setTimeout(r, 1000));
  await onScreen(['History cut vs probes kept', 'rolling ('], 'eval-report-side-chart');
  // The same in a dark theme: the chart has no white box and its text stays legible (look at the picture).
  const theme = vscode.workspace.getConfiguration('workbench');
  const before = theme.inspect<string>('colorTheme')?.globalValue;
  await theme.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
  try {
    await new Promise((r) => setTimeout(r, 1500));
    await onScreen(['Compaction evaluation', 'worst first'], 'eval-report-dark');
  } finally {
    await theme.update('colorTheme', before, vscode.ConfigurationTarget.Global);
  }
}

/** The Markdown preview is a webview that can take seconds to render on a loaded machine: look again a few times. */
async function onScreen(texts: string[], shot: string): Promise<void> {
  let missing: string[] | undefined;
  for (let i = 0; i < 3 && (missing === undefined || missing.length > 0); i++) {
    missing = await checkScreen(texts, shot);
    if (missing === undefined) break;
  }
  assert.deepEqual(missing ?? [], [], `the Markdown preview shows the report (test-results/${shot}.png)`);
}

test('Evaluate compaction on a session its agent compacted: the report sets the agent\'s own compaction beside ours', async () => {
  await view();
  // A real Claude Code 2.0 session compacted four times by its agent (the Sessions view's stores hold none).
  const file = path.resolve(fixture('.').fsPath, '..', '..', 'fixtures', 'real', 'claude-code', 'tpos-2.0.57-4compactions.jsonl');
  const node = { kind: 'session', file, title: 'tpos research session', label: 'tpos', compacted: false };
  const out = await vscode.commands.executeCommand<EvalOutcome | undefined>(CommandIds.evaluateCompaction, node, { strategies: ['cleanup', 'vendor'], jobs: 1 });
  assert.ok(out, 'the command returns its outcome');
  assert.equal(out.report.segments?.compactions, 4);
  assert.deepEqual(out.report.rows.filter((r) => r.strategy === 'vendor').map((r) => [r.status, r.segment?.index]), [['ok', 1], ['ok', 2], ['ok', 3], ['ok', 4]]);
  const md = fs.readFileSync(out.markdown, 'utf8');
  assert.ok(md.includes("## On the agent's own compaction segments"), 'the vendor section is in the report');
  assert.match(md, /^\| vendor \\\(the agent\\'s own\\\) \| 4\/4 \|/m);
  assert.ok(md.includes('tpos research session @ compaction 1/4'), 'each compaction names its session');
  // In the preview, beside its source scrolled to the section.
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  try {
    const doc = await vscode.workspace.openTextDocument(out.markdown);
    const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    const at = doc.getText().split('\n').findIndex((l) => l.startsWith("## On the agent's own"));
    editor.revealRange(new vscode.Range(at, 0, at, 0), vscode.TextEditorRevealType.AtTop);
    await vscode.commands.executeCommand('markdown.showPreviewToSide', doc.uri);
    await new Promise((r) => setTimeout(r, 1500));
    await onScreen(["On the agent's own compaction segments", "vendor (the agent's own)", 'ours, cleanup', 'history cut (median)'], 'eval-report-vendor');
  } finally {
    await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
  }
});

test('with a provider, Evaluate asks before it spends: rules only calls nothing, run makes the calls it estimated', async () => {
  const sessions = await view();
  const claude = sessions.tree.agents.find((a) => a.agent === 'claude-code')!;
  const fake = await startFakeOpenAI('no-key');
  const cfg = vscode.workspace.getConfiguration('contextCompactor');
  const set = (k: string, v: unknown): Thenable<void> => cfg.update(k, v, vscode.ConfigurationTarget.Global);
  await set('summary.provider', 'openai-compatible');
  await set('summary.baseUrl', `${fake.url}/v1`);
  await set('summary.model', 'eval-test-model');
  // The fixture sessions are short: keep one recent turn so each has an older part to summarize.
  await set('cleanup.keepRecentTurns', 1);
  try {
    const args = { strategies: ['cleanup', 'summary'], jobs: 1 };
    const rules = await vscode.commands.executeCommand<EvalOutcome | undefined>(CommandIds.evaluateCompaction, claude, { ...args, confirm: 'rules-only' });
    assert.ok(rules, 'rules only runs');
    assert.equal(rules.report.provider, undefined);
    assert.equal(fake.requests.length, 0, 'no request reached the provider');
    assert.ok(rules.report.rows.filter((r) => r.strategy === 'summary').every((r) => r.status === 'skipped' && r.modelCalls === 0));
    assert.ok(rules.report.rows.filter((r) => r.strategy === 'cleanup').every((r) => r.status === 'ok'));

    const run = await vscode.commands.executeCommand<EvalOutcome | undefined>(CommandIds.evaluateCompaction, claude, { ...args, confirm: 'run' });
    assert.ok(run?.estimate, 'the run carries what was estimated before it');
    assert.deepEqual(run.report.provider, { id: 'openai-compatible', model: 'eval-test-model' });
    const calls = run.report.rows.reduce((a, r) => a + r.modelCalls, 0);
    assert.equal(calls, run.report.files, 'one summary per session');
    assert.equal(run.estimate.calls, calls, 'the question said how many calls the run makes');
    assert.equal(fake.requests.filter((r) => r.path === '/v1/chat/completions').length, calls);
    // A model the price catalog does not know: the question says "cost unknown", not $0.
    assert.equal(run.estimate.costUsd, undefined);
    assert.match(fs.readFileSync(run.markdown, 'utf8'), /^\| summary \| \d+\/\d+ \| [\d.]+\s% \| [\d.]+\s% \| \d+ · cost unknown \|$/m);
  } finally {
    for (const k of ['summary.provider', 'summary.baseUrl', 'summary.model', 'cleanup.keepRecentTurns']) await set(k, undefined);
    await fake.close();
  }
});

test('Evaluate compaction from the palette covers every session the view lists, of every agent', async () => {
  const sessions = await view();
  const all = sessions.tree.agents.flatMap((a) => a.children.flatMap((p) => p.children.map((s) => s.file)));
  const out = await vscode.commands.executeCommand<EvalOutcome | undefined>(CommandIds.evaluateCompaction, undefined, { strategies: ['cleanup'], jobs: 1 });
  assert.ok(out);
  assert.equal(out.report.files, all.length);
  assert.deepEqual([...new Set(out.report.rows.map((r) => r.format))].sort(), ['claude-code', 'codex', 'gemini-cli']);
  for (const r of out.report.rows) assert.equal(r.status, 'ok', `${r.file}: ${r.failure}`);
});
