// "Inspect transcript" on the fixture workspace: an error for a broken file, a report for a real transcript (shown last,
// so the screenshot shows it).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension.js';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import { expectOnScreen, test } from '../harness.js';
import { activeExtension, fixture, reportDocuments, waitFor } from './fixtures.js';

const transcript = 'claude-session.jsonl';

function reportFor(uri: unknown): vscode.TextDocument {
  assert.ok(uri instanceof vscode.Uri, `the command resolves to the report's Uri, got ${String(uri)}`);
  assert.equal(uri.scheme, 'context-compactor');
  const doc = reportDocuments().find((d) => d.uri.toString() === uri.toString());
  assert.ok(doc, 'the report is open as a document');
  return doc;
}

test('a file that is not a transcript gives an error message and no report', async () => {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const before = reportDocuments().length;
  const result = await vscode.commands.executeCommand(CommandIds.inspectTranscript, fixture('not-a-transcript.jsonl'));
  assert.equal(result, undefined);
  assert.equal(reportDocuments().length, before);
  assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).length, 0, 'no editor was opened');
  // The notification itself is checked on the page by the runner.
  expectOnScreen('cannot inspect not-a-transcript.jsonl');
});

test("a Goose store's session is read on the document thread, not on the extension host's", async () => {
  const api = (await activeExtension()).exports as ExtensionApi;
  // The real Goose 1.37.0 store (test/fixtures/goose/README.md), copied outside every agent root the view scans.
  const store = path.resolve(fixture('.').fsPath, '../../fixtures/goose/sessions-1.37.0');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-goose-'));
  for (const f of fs.readdirSync(store)) fs.copyFileSync(path.join(store, f), path.join(dir, f));
  const before = api.documentReads();
  const doc = reportFor(await vscode.commands.executeCommand(CommandIds.inspectTranscript, vscode.Uri.file(path.join(dir, 'sessions.db'))));
  assert.match(doc.getText(), /^# /, 'the report starts with a heading');
  assert.match(doc.getText(), /\bgoose\b/i);
  assert.ok(api.documentReads() > before, 'the session came from the document thread (dist/documentWorker.js)');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('without an argument the command inspects the active .jsonl editor', async () => {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.window.showTextDocument(fixture(transcript));
  const doc = reportFor(await vscode.commands.executeCommand(CommandIds.inspectTranscript));
  assert.match(doc.getText(), /\bBash\b/);
});

test('inspecting a Claude Code transcript by Uri opens its report', async () => {
  await activeExtension();
  const doc = reportFor(await vscode.commands.executeCommand(CommandIds.inspectTranscript, fixture(transcript)));
  const text = doc.getText();
  assert.equal(doc.languageId, 'markdown');
  assert.match(text, /^# /, 'the report starts with a heading');
  assert.match(text, /records: 34\b/, 'the fixture has 34 JSONL records');
  // The fixture's two tool calls are Bash commands, each answered by a tool_result block.
  assert.match(text, /\btool_result\b/);
  assert.match(text, /\bBash\b/);
  // Named by the session's title (the tab's label), not by the file's name or id.
  assert.equal(doc.uri.path, '/Context of Task 1: investigate how npm handles "workspace", reproduce….md');
});

test('the report is shown as a rendered markdown preview', async () => {
  // markdown.showPreview resolves before its webview tab exists.
  const isPreview = () => {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    return input instanceof vscode.TabInputWebview && /markdown\.preview/.test(input.viewType);
  };
  await waitFor(isPreview, 10_000);
  assert.ok(isPreview(), `active tab: ${vscode.window.tabGroups.activeTabGroup.activeTab?.label}`);
  assert.match(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '', /^Preview Context of Task 1: investigate how npm/);
});
