// "Evaluate compaction" in real VS Code: on an agent node of the Sessions view and from the palette, the report
// with its chart opens in the Markdown preview.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension.js';
import type { EvalOutcome } from '../../../src/vscode/evalCommand.js';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import { checkScreen, test } from '../harness.js';
import { activeExtension, waitFor } from './fixtures.js';

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
  // The Markdown preview is a webview that can take seconds to render on a loaded machine: look again a few times.
  let missing: string[] | undefined;
  for (let i = 0; i < 3 && (missing === undefined || missing.length > 0); i++) {
    missing = await checkScreen(['Compaction evaluation', 'Probes kept by kind', 'Worst files per strategy'], 'eval-report');
    if (missing === undefined) break;
  }
  assert.deepEqual(missing ?? [], [], 'the Markdown preview shows the report (test-results/eval-report.png)');
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
