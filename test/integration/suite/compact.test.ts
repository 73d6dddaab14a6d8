// "Compact transcript" in real VS Code: Accept writes into the agent's own store (where resume finds it), the decision
// lives on the diff's title bar, Discard or closing the diff writes nothing, a non-transcript fails before any question.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { claudeProjectSlug } from '../../../src/node/agentStores';
import { inspectReport } from '../../../src/node/inspectFile';
import { reportName } from '../../../src/vscode/compact/accept';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import type { CompactOutcome } from '../../../src/vscode/compactCommand.js';
import { checkScreen, test } from '../harness.js';
import { activeExtension, fixture, waitFor } from './fixtures.js';

const sha = (p: string): string => createHash('sha256').update(fs.readFileSync(p)).digest('hex');
const claudeHome = (): string => {
  assert.ok(process.env.CLAUDE_CONFIG_DIR, 'the runner points CLAUDE_CONFIG_DIR at a throwaway home');
  return process.env.CLAUDE_CONFIG_DIR;
};
/** The workspace's project folder in the throwaway Claude Code store (the sample's recorded cwd is not on this machine). */
const workspaceProject = (): string => path.join(claudeHome(), 'projects', claudeProjectSlug(fixture('.').fsPath));
const listing = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

/** The real 1 MB Claude Code sample, copied outside the workspace. */
function outsideCopy(): string {
  const src = path.resolve(fixture('.').fsPath, '..', '..', 'fixtures', 'claude-code', 'sample.jsonl');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-int-'));
  const file = path.join(dir, 'session.jsonl');
  fs.copyFileSync(src, file);
  return file;
}

/**
 * The same screen in a dark theme (test-results/<name>.png), then back to the default one. Only when asked
 * (VSCODE_E2E_DARK_SHOTS=1 npm run test:integration): in the runs that switched the theme mid-suite, the composition
 * panel's webview opened later stayed blank in code-server (cause not established).
 */
async function darkShot(name: string): Promise<void> {
  if (process.env.VSCODE_E2E_DARK_SHOTS !== '1') return;
  const workbench = vscode.workspace.getConfiguration('workbench');
  await workbench.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
  try {
    await new Promise((r) => setTimeout(r, 800));
    await checkScreen([], name);
  } finally {
    await workbench.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
  }
}

const diffTabs = (): vscode.Tab[] => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff);
const compactCmd = (uri: vscode.Uri, args: object): Thenable<CompactOutcome | undefined> => vscode.commands.executeCommand(CommandIds.compactTranscript, uri, args);

test('Compact → Accept writes the session into Claude Code\'s store, not the workspace; original untouched; diff closed', async () => {
  await activeExtension();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const input = outsideCopy();
  const before = sha(input);
  const result = await compactCmd(vscode.Uri.file(input), { decision: 'accept' });
  assert.ok(result?.output, 'a compacted transcript was written');
  try {
    assert.equal(result.written, true);
    assert.equal(result.decision, 'accept');
    assert.equal(path.dirname(result.output), workspaceProject(), 'in the store, under the folder the resume runs in');
    assert.equal(result.cwd, fixture('.').fsPath);
    assert.equal(fs.existsSync(path.join(fixture('.').fsPath, 'compacted')), false, 'nothing in the user\'s repository');
    assert.equal(sha(input), before, 'the original is never modified');
    assert.ok(result.report.reduction > 0.7, `reduction ${result.report.reduction}`);
    assert.equal(result.report.pairsIntact, true);
    assert.equal(result.report.resumeCommand, `claude --resume ${result.report.sessionId}`);
    const written = fs.readFileSync(result.output, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { sessionId?: string });
    assert.ok(written.every((r) => r.sessionId === result.report.sessionId));
    assert.deepEqual(diffTabs(), [], 'the diff closes once the decision is taken');
  } finally {
    fs.rmSync(result.output, { force: true });
    fs.rmSync(path.dirname(input), { recursive: true, force: true });
  }
});

test('the decision lives on the diff: its title-bar Accept writes, then the report opens and says where', async () => {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const input = outsideCopy();
  const pending = compactCmd(vscode.Uri.file(input), {});
  let result: CompactOutcome | undefined;
  try {
    await waitFor(() => diffTabs().length === 1, 15_000);
    const diff = diffTabs()[0];
    assert.ok(diff, 'a diff editor shows original vs compacted');
    const right = await vscode.workspace.openTextDocument((diff.input as vscode.TabInputTextDiff).modified);
    assert.match(right.getText(), /\[context-compactor: Read result ok/, 'tool records are visible in the preview');
    // The diff and (later) the report get the window's width; the side bar comes back at the end.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    assert.deepEqual(await checkScreen(['original ↔ compacted', 'Compaction preview'], 'compact-diff') ?? [], [], 'test-results/compact-diff.png');
    await darkShot('compact-diff-dark');
    // What the ✓ in the diff's title bar runs (with the diff's right side as its argument).
    assert.equal(await vscode.commands.executeCommand(CommandIds.compactAccept, (diff.input as vscode.TabInputTextDiff).modified), true);
    result = await pending;
    assert.equal(result?.written, true);
    assert.equal(path.dirname(result.output ?? ''), workspaceProject());
    await waitFor(() => diffTabs().length === 0, 5000);
    assert.deepEqual(diffTabs(), [], 'Accept closes the diff');
    // The report is a Markdown preview (a webview): give it a second look on a busy machine.
    const texts = ['Kept and cut', 'Written to', `claude --resume ${result.report.sessionId}`, 'compacted session written to'];
    let missing = await checkScreen(texts);
    if (missing?.length) missing = await checkScreen(texts, 'compact-report');
    else await checkScreen([], 'compact-report');
    await darkShot('compact-report-dark');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '';
    assert.match(tab, /^Preview Compaction report — /, 'the report\'s tab is named by the session\'s title');
    assert.ok(!tab.includes(result.report.sessionId), tab);
    await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
    assert.deepEqual(missing ?? [], [], 'the report is on screen (test-results/compact-report.png)');
    assert.equal(await vscode.commands.executeCommand(CommandIds.compactAccept), false, 'nothing is pending any more');
  } finally {
    if (result?.output) fs.rmSync(result.output, { force: true });
    fs.rmSync(path.dirname(input), { recursive: true, force: true });
  }
});

test('closing the diff is a Discard: nothing written, no resume command', async () => {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const input = outsideCopy();
  const store = listing(workspaceProject());
  const pending = compactCmd(vscode.Uri.file(input), {});
  await waitFor(() => diffTabs().length === 1, 15_000);
  assert.equal(diffTabs().length, 1);
  await vscode.window.tabGroups.close(diffTabs());
  const result = await pending;
  assert.ok(result);
  assert.equal(result.decision, 'discard');
  assert.equal(result.written, false);
  assert.equal(result.output, undefined);
  assert.equal(result.report.resumeCommand, '', 'no command for a session never written');
  assert.deepEqual(listing(workspaceProject()), store);
  assert.deepEqual(fs.readdirSync(path.dirname(input)), ['session.jsonl']);
  fs.rmSync(path.dirname(input), { recursive: true, force: true });
});

test('Discard from the palette (no argument: the active diff) closes the diff and writes nothing', async () => {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const input = outsideCopy();
  const store = listing(workspaceProject());
  const pending = compactCmd(vscode.Uri.file(input), {});
  await waitFor(() => diffTabs().length === 1, 15_000);
  assert.equal(await vscode.commands.executeCommand(CommandIds.compactDiscard), true);
  const result = await pending;
  assert.equal(result?.decision, 'discard');
  assert.equal(result.report.resumeCommand, '');
  assert.deepEqual(diffTabs(), [], 'Discard closes the diff');
  assert.deepEqual(listing(workspaceProject()), store);
  fs.rmSync(path.dirname(input), { recursive: true, force: true });
});

test('Discard writes nothing, returns no resume command and closes the diff', async () => {
  const input = outsideCopy();
  const store = listing(workspaceProject());
  const result = await compactCmd(vscode.Uri.file(input), { decision: 'discard' });
  assert.ok(result);
  assert.equal(result.written, false);
  assert.equal(result.output, undefined);
  assert.equal(result.report.resumeCommand, '');
  assert.deepEqual(diffTabs(), []);
  assert.deepEqual(listing(workspaceProject()), store);
  assert.deepEqual(fs.readdirSync(path.dirname(input)), ['session.jsonl']);
  assert.equal(fs.existsSync(path.join(fixture('.').fsPath, 'compacted')), false);
  fs.rmSync(path.dirname(input), { recursive: true, force: true });
});

test('Save to folder writes where asked, and offers no command the agent could not follow', async () => {
  const input = outsideCopy();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-int-out-'));
  try {
    const result = await compactCmd(vscode.Uri.file(input), { decision: 'save-to-folder', folder });
    assert.equal(result?.written, true);
    assert.equal(result.decision, 'save-to-folder');
    assert.equal(path.dirname(result.output ?? ''), folder);
    assert.equal(result.report.resumeCommand, '', 'Claude Code does not look in that folder');
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(path.dirname(input), { recursive: true, force: true });
  }
});

test('a non-transcript rejects with a one-line error before any focus question', async () => {
  // With a provider set, the focus question would come first and block this call (no one answers it).
  const config = vscode.workspace.getConfiguration('contextCompactor');
  await config.update('summary.provider', 'anthropic', vscode.ConfigurationTarget.Global);
  try {
    const call = Promise.resolve(compactCmd(fixture('not-a-transcript.jsonl'), {}));
    const settled = await Promise.race([call.then(() => 'resolved', (e: unknown) => e), new Promise((r) => setTimeout(() => r('still waiting (a question is open?)'), 15_000))]);
    assert.ok(settled instanceof Error, `rejects: ${String(settled)}`);
    assert.match(settled.message, /^Context Compactor: cannot compact not-a-transcript\.jsonl: /);
    assert.doesNotMatch(settled.message, /\n|\bat .*\.js:\d+/, 'one line, no stack trace');
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await config.update('summary.provider', undefined, vscode.ConfigurationTarget.Global);
  }
});

test('a handoff agent (Aider): Accept writes the Markdown handoff, opens it, and offers no resume command', async () => {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-int-aider-'));
  const input = path.join(dir, '.aider.chat.history.md');
  fs.copyFileSync(path.resolve(fixture('.').fsPath, '..', '..', 'fixtures', 'real', 'aider', 'metadata-aider-0.86.1-diff-cost.aider.chat.history.md'), input);
  const result = await compactCmd(vscode.Uri.file(input), { decision: 'accept' });
  try {
    assert.equal(result?.written, true);
    assert.equal(result.report.handoff, true);
    assert.equal(result.report.resumeCommand, '');
    assert.ok(result.output && fs.readFileSync(result.output, 'utf8').length > 0);
    await waitFor(() => vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === result.output), 5000);
    assert.ok(vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === result.output), 'the handoff is open');
  } finally {
    if (result?.output) fs.rmSync(result.output, { force: true });
    const own = path.join(fixture('.').fsPath, 'compacted');
    if (listing(own).length === 0) fs.rmSync(own, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a provider without a key: the summary is skipped before any question, and the report says why', async () => {
  const config = vscode.workspace.getConfiguration('contextCompactor');
  await config.update('summary.provider', 'anthropic', vscode.ConfigurationTarget.Global);
  await vscode.commands.executeCommand(CommandIds.clearApiKey, 'anthropic');
  const input = outsideCopy();
  let result: CompactOutcome | undefined;
  try {
    // No focus given and no decision-free prompt answered: a focus question would block this call.
    result = await compactCmd(vscode.Uri.file(input), { decision: 'accept' });
    assert.equal(result?.written, true);
    assert.equal(result.report.modelCalls, 0);
    const title = (await inspectReport(input)).title ?? assert.fail('the sample has a first prompt');
    const report = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'context-compactor-preview', path: `/${result.report.sessionId}/${reportName(title)}` }));
    assert.match(report.getText(), /\*\*Summary:\*\* Summary skipped\\?: no API key for anthropic\./);
  } finally {
    await config.update('summary.provider', undefined, vscode.ConfigurationTarget.Global);
    if (result?.output) fs.rmSync(result.output, { force: true });
    fs.rmSync(path.dirname(input), { recursive: true, force: true });
  }
});
