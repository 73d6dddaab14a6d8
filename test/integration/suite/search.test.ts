// "Search sessions…" in real VS Code over the fixture stores (Claude Code, Codex, Gemini CLI): the live quick pick
// finds each agent's match, a pick is accepted through VS Code's own command, and the composition panel opens at that
// message — its webview reports the message scrolled to and highlighted, and the runner sees it on the page.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension.js';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile.js';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import type { Opened, SearchItem as Item } from '../../../src/vscode/searchBox.js';
import { checkScreen, test } from '../harness.js';
import { activeExtension, waitFor } from './fixtures.js';

async function api(): Promise<ExtensionApi> {
  return (await activeExtension()).exports as ExtensionApi;
}

const panelActive = (): boolean => vscode.window.tabGroups.all.flatMap((g) => g.tabs)
  .some((t) => t.input instanceof vscode.TabInputWebview && /contextCompactor\.composition$/.test(t.input.viewType) && t.isActive && t.label.startsWith('Context:'));

/** Types `query` in the search box, waits for its matches, accepts the first of `kind`; resolves to what opened. */
async function searchAndPick(query: string, kind: string): Promise<{ opened: Opened; items: Item[] }> {
  const a = await api();
  const running = vscode.commands.executeCommand<Opened | undefined>(CommandIds.searchSessions, query);
  const picks = (): Item[] => (a.search.current?.items ?? []).filter((i) => i.pick);
  await waitFor(() => picks().length > 0, 30_000);
  const qp = a.search.current;
  assert.ok(qp, 'the search box is open');
  const items = picks();
  assert.ok(items.length > 0, `matches for ${query}: ${a.search.lastStatus} ${qp.items.map((i) => i.label).join(' | ')}`);
  const item = items.find((i) => i.pick?.target.kind === kind);
  assert.ok(item, `a ${kind} among ${items.map((i) => i.label).join(', ')}`);
  qp.activeItems = [item];
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  const opened = await running;
  assert.ok(opened, 'the pick opened a session');
  return { opened, items };
}

/** The transcript's own message at that index holds the words, in a block of that kind: the right message opened. */
async function assertMessageHolds(opened: Opened, words: string, blockType: string): Promise<void> {
  const { session } = await readTranscriptFile(opened.file);
  const m = session.messages[opened.target.message];
  assert.ok(m, `message ${opened.target.message} of ${session.messages.length}`);
  const texts = m.blocks.filter((b) => b.type === blockType).map((b) => (b.type === 'tool_call' ? `${b.name} ${b.inputText}` : 'text' in b ? b.text : ''));
  assert.ok(texts.some((t) => t.toLowerCase().includes(words.toLowerCase())), `message ${opened.target.message + 1} holds "${words}" in a ${blockType}`);
}

async function assertPanelAt(opened: Opened, shot: string): Promise<void> {
  const a = await api();
  await waitFor(() => a.composition.focusShownIn(opened.file) === opened.target.message, 30_000);
  assert.equal(a.composition.focusShownIn(opened.file), opened.target.message, 'the webview scrolled to and highlighted the picked message');
  assert.ok(panelActive(), 'the composition panel is the active tab');
  const missing = await checkScreen(['Search match', `message ${opened.target.message + 1} of`], shot);
  if (missing) assert.deepEqual(missing, [], `on the page: ${shot}`);
}

test('search: a Codex tool result, picked, opens the panel at its message', async () => {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const { opened, items } = await searchAndPick('agent:codex execWorkspaces', 'tool result');
  assert.ok(items.every((i) => i.pick?.file.includes(`${path.sep}sessions${path.sep}`)), 'agent:codex keeps Codex sessions only');
  assert.match(items[0]!.description ?? '', /^Codex · repo · .* · Task 1: investigate/);
  assert.match(items[0]!.detail ?? '', /execWorkspaces/);
  assert.equal((await api()).search.lastRun?.threaded, true, 'the search ran on its worker thread (dist/searchWorker.js), not the host\'s');
  assert.equal(opened.file, items.find((i) => i.pick?.target.kind === 'tool result')!.pick!.file);
  await assertMessageHolds(opened, 'execWorkspaces', 'tool_result');
  await assertPanelAt(opened, 'search-codex');
});

test('search: a Claude Code tool call and a Gemini CLI reply open at their messages; another pick moves the open panel', async () => {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const claude = await searchAndPick('agent:claude-code Find uses of workspace', 'tool call');
  assert.match(claude.opened.file, /ab9a2988-b392-46b5-a150-6191e63efe31\.jsonl$/);
  await assertMessageHolds(claude.opened, 'Find uses of workspace', 'tool_call');
  await assertPanelAt(claude.opened, 'search-claude');
  const gemini = await searchAndPick('agent:gemini look at src/core/cleanup first', 'reply');
  assert.match(gemini.opened.file, /session-2026-12-03T09-56-0061450c\.jsonl$/);
  await assertMessageHolds(gemini.opened, 'look at src/core/cleanup first', 'text');
  await assertPanelAt(gemini.opened, 'search-gemini');
  // The Claude Code panel is still open: a second match in it moves its focus without a second panel.
  const again = await searchAndPick('agent:claude-code execWorkspaces', 'tool result');
  assert.equal(again.opened.file, claude.opened.file);
  assert.notEqual(again.opened.target.message, claude.opened.target.message);
  await assertMessageHolds(again.opened, 'execWorkspaces', 'tool_result');
  await assertPanelAt(again.opened, 'search-claude-again');
  const panels = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && /contextCompactor\.composition$/.test(t.input.viewType));
  assert.equal(panels.length, 2, 'one panel per session');
});

test('search: a since: that is no date and an unknown agent say so; since: keeps recent sessions only', async () => {
  const a = await api();
  const running = vscode.commands.executeCommand<Opened | undefined>(CommandIds.searchSessions, 'agent:nobody since:someday workspace');
  await waitFor(() => (a.search.current?.items.length ?? 0) > 0, 10_000);
  const labels = a.search.current?.items.map((i) => i.label) ?? [];
  assert.equal(labels.length, 2, labels.join(' | '));
  assert.match(labels[0]!, /^\$\(warning\) agent:nobody is no agent/);
  assert.match(labels[1]!, /^\$\(warning\) since:someday needs a date/);
  // The fixtures' sessions ran in December 2026: since a later day, none; since the first, the three agents'.
  const qp = a.search.current!;
  qp.value = 'since:2030-01-01 task 1';
  await waitFor(() => /^No matches in 0 sessions/.test(qp.items[0]?.label ?? ''), 30_000);
  assert.match(qp.items[0]?.label ?? '', /^No matches in 0 sessions/);
  assert.match(qp.items[0]?.detail ?? '', /Filters are on/);
  qp.value = 'since:2026-12-01 task 1';
  await waitFor(() => qp.items.some((i: Item) => i.pick), 30_000);
  const files = [...new Set(qp.items.map((i: Item) => i.pick?.file).filter((f): f is string => f !== undefined))];
  assert.ok(files.some((f) => f.includes('.gemini')) && files.some((f) => f.endsWith('.jsonl') && f.includes('projects')), files.join(', '));
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  assert.equal(await running, undefined, 'closed without a pick: nothing opened');
});
