// "Show context composition" in real VS Code: the panel opens for a transcript and its chart renders.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import { test } from '../harness.js';
import { activeExtension, fixture, waitFor } from './fixtures.js';

const isPanel = (t: vscode.Tab): boolean => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('contextCompactor.composition');

test('Show context composition opens the panel for a transcript', async () => {
  await activeExtension();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const shown = await vscode.commands.executeCommand(CommandIds.showComposition, fixture('claude-session.jsonl'));
  assert.equal(shown, fixture('claude-session.jsonl').fsPath);
  const open = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).some(isPanel);
  await waitFor(open, 10_000);
  assert.ok(open(), 'a composition webview tab is open');
});
