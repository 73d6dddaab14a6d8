// "Show context composition" in real VS Code: the panel opens for a transcript and its chart renders. Shown last, next
// to the inspect report's markdown preview, so the runner can check (and the screenshot shows) that both webviews render.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import { expectOnScreen, test } from '../harness.js';
import { activeExtension, fixture, waitFor } from './fixtures.js';

const tabs = (): vscode.Tab[] => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
const isWebview = (t: vscode.Tab, viewType: RegExp): boolean => t.input instanceof vscode.TabInputWebview && viewType.test(t.input.viewType);
const isPanel = (t: vscode.Tab): boolean => isWebview(t, /contextCompactor\.composition$/);
const isPreview = (t: vscode.Tab): boolean => isWebview(t, /markdown\.preview/);

test('the inspect report renders as a markdown preview', async () => {
  await activeExtension();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand(CommandIds.inspectTranscript, fixture('claude-session.jsonl'));
  await waitFor(() => tabs().some(isPreview), 10_000);
  assert.ok(tabs().some(isPreview), 'a markdown preview tab is open');
  // Close the markdown source so that the screenshot shows the rendered preview. Not checked on the page yet: in
  // about 1 run of 4 a webview stays blank. Likely cause: code-server serves every webview from the workbench's own
  // origin, so all webviews share one service worker, and each new webview replaces it while another may still be
  // waiting for its resources (VS Code proper gives each webview its own origin and worker).
  await vscode.window.tabGroups.close(tabs().filter((t) => t.input instanceof vscode.TabInputText));
});

test('Show context composition opens the panel for a transcript', async () => {
  await activeExtension();
  // A second editor group keeps the preview above on screen; the panel opens in the active (new) group.
  await vscode.commands.executeCommand('workbench.action.newGroupRight');
  // Let the preview finish loading first: in code-server all webviews share one service worker, and a webview that
  // registers while another still waits for its resources can leave that one blank (the flake noted above).
  await new Promise((r) => setTimeout(r, 3000));
  const shown = await vscode.commands.executeCommand(CommandIds.showComposition, fixture('claude-session.jsonl'));
  assert.equal(shown, fixture('claude-session.jsonl').fsPath);
  await waitFor(() => tabs().some(isPanel), 10_000);
  assert.ok(tabs().some(isPanel), 'a composition webview tab is open');
  assert.ok(tabs().some(isPreview), 'the markdown preview is still open beside it');
  // The chart is drawn by the panel's script inside the webview; only the runner can see it. The preview beside it
  // also has a "Tokens by kind" heading, so look for a title only the panel's script writes, too.
  expectOnScreen('Tokens by kind');
  expectOnScreen('Largest items');
});
