// extensionTestsPath entry of the packaged run (runPackaged.mjs): the .vsix, installed like a user's, activates after
// startup, scans nothing before a view asks, works, and shows its README with pictures.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension.js';
import { scanUsage, type ScanOptions } from '../../../src/node/usage/scanner.js';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import { checkScreen, recordMetric, runAll, test } from '../harness.js';
import { extensionId, fixture, reportDocuments, waitFor } from '../suite/fixtures.js';
import { finish } from '../finish.js';

const installed = (): vscode.Extension<ExtensionApi> => {
  const ext = vscode.extensions.getExtension<ExtensionApi>(extensionId);
  assert.ok(ext, `${extensionId} is installed`);
  return ext;
};

test('the extension is the installed package, not the source folder', () => {
  const ext = installed();
  const dir = process.env['VSCODE_E2E_EXTENSIONS_DIR'];
  assert.ok(dir && ext.extensionPath.startsWith(path.resolve(dir) + path.sep), `${ext.extensionPath} is not under ${dir}`);
  const files = readdirSync(ext.extensionPath, { recursive: true, encoding: 'utf8' });
  assert.ok(files.includes(path.join('dist', 'extension.js')) && files.includes(path.join('dist', 'usageWorker.js')), files.join(', '));
  assert.ok(files.includes(path.join('dist', 'hook.js')), 'the SessionStart hook bundle "Guard Claude Code\'s compaction" installs');
  assert.ok(files.includes(path.join('dist', 'documentWorker.js')), 'the document thread: store sessions are read off the extension host\'s thread');
  const unwanted = files.filter((f) => /\.map$|\.ts$|^src|^test|^bench|fixtures|node_modules|^dist[\\/]cli/.test(f));
  assert.deepEqual(unwanted, [], 'no sources, tests, fixtures, source maps or CLI in the package');
});

test('it activates once startup has finished (for its status bar) and scans nothing on its own', async () => {
  // onStartupFinished: activation itself only registers things; with the status bar off no scan is ever asked for.
  const ext = installed();
  await waitFor(() => ext.isActive, 20_000);
  assert.equal(ext.isActive, true);
  assert.ok(ext.exports.activationMs > 0, `activationMs ${ext.exports.activationMs}`);
  recordMetric('activationMs', ext.exports.activationMs);
  assert.equal(ext.exports.sessions.state, 'idle');
  assert.equal(existsSync(path.join(process.env['XDG_CACHE_HOME'] ?? '', 'context-compactor')), false, 'no usage scan has run');
});

test('a command runs; still no scan', async () => {
  const uri = await vscode.commands.executeCommand(CommandIds.inspectTranscript, fixture('claude-session.jsonl'));
  assert.ok(uri instanceof vscode.Uri, `the report's Uri, got ${String(uri)}`);
  const doc = reportDocuments().find((d) => d.uri.toString() === uri.toString());
  assert.match(doc?.getText() ?? '', /\bBash\b/);
  assert.equal(installed().exports.sessions.state, 'idle');
  assert.equal(existsSync(path.join(process.env['XDG_CACHE_HOME'] ?? '', 'context-compactor')), false, 'no usage scan has run');
});

test('the baseline probe extension activates too (the benchmark compares the two)', async () => {
  const probe = vscode.extensions.all.find((e) => e.packageJSON.name === 'activation-probe');
  assert.ok(probe, 'the probe is the extension under development');
  const api = (await probe.activate()) as { activationMs: number };
  assert.ok(api.activationMs >= 0);
  recordMetric('baselineActivationMs', api.activationMs);
});

test('the Sessions view scans once it is shown', async () => {
  const view = installed().exports.sessions;
  await vscode.commands.executeCommand('workbench.view.extension.contextCompactor');
  await waitFor(() => view.state === 'ready', 20_000);
  assert.equal(view.state, 'ready');
  assert.ok(view.tree.sessionCount >= 3, `${view.tree.sessionCount} sessions listed`);
});

test('turning the status bar on scans, and it shows the latest session', async () => {
  const status = installed().exports.status.item;
  await vscode.workspace.getConfiguration('contextCompactor').update('statusBar', true, vscode.ConfigurationTarget.Global);
  await waitFor(() => status.text !== '', 20_000);
  assert.match(status.text, /^\$\((pulse|warning)\) /, status.text);
});

test("the packaged scan worker runs in the extension host and agrees with one thread", async () => {
  const workerScript = path.join(installed().extensionPath, 'dist', 'usageWorker.js');
  const scan = (extra: Partial<ScanOptions>) => scanUsage({ env: process.env, includeDefaults: true, useCache: false, ...extra });
  const one = await scan({});
  const two = await scan({ workerScript, worker: 'only' });
  assert.ok(two.report.sessions.length >= 3);
  assert.ok(two.stats.workerFiles > 0, 'the worker parsed files');
  assert.equal(two.stats.workerFiles, two.stats.parsedFully - two.stats.documentsRead, 'the worker parsed every file read by lines (documents are read whole on this thread)');
  assert.deepEqual(two.report.totals, one.report.totals);
});

test("the installed package reads a Goose store's session on its document thread", async () => {
  // The real Goose 1.37.0 store (test/fixtures/goose/README.md), copied outside every agent root.
  const store = path.resolve(fixture('.').fsPath, '../../fixtures/goose/sessions-1.37.0');
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-goose-'));
  for (const f of readdirSync(store)) copyFileSync(path.join(store, f), path.join(dir, f));
  const before = installed().exports.documentReads();
  const uri = await vscode.commands.executeCommand(CommandIds.inspectTranscript, vscode.Uri.file(path.join(dir, 'sessions.db')));
  assert.ok(uri instanceof vscode.Uri, `the report's Uri, got ${String(uri)}`);
  assert.match(reportDocuments().find((d) => d.uri.toString() === uri.toString())?.getText() ?? '', /\bgoose\b/i);
  assert.ok(installed().exports.documentReads() > before, 'read by dist/documentWorker.js');
  rmSync(dir, { recursive: true, force: true });
});

test("the extension page shows the README's pictures from the package", async () => {
  // `extension.open` asks the gallery first (no network here); `_extensions.manage` opens the installed copy's page.
  await vscode.commands.executeCommand('_extensions.manage', extensionId);
  // By alt text: the packaged README carries its pictures inline (scripts/package.mjs).
  const pictures = ['Context composition of a real Claude Code session', 'Rolling-compaction simulator', 'Sessions view with a session flagged "compact soon"'];
  const missing = await checkScreen([], 'packaged-readme', 40_000, pictures);
  assert.deepEqual(missing ?? [], [], 'README pictures (test-results/packaged-readme.png)');
});

export async function run(): Promise<void> {
  await finish(await runAll());
}
