// Shared handles for the integration suite: the extension under test and the fixture workspace.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { generous } from '../../support/waits.js';

export const extensionId = 'context-compactor.context-compactor';

export function fixture(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test run opens test/integration/workspace');
  return vscode.Uri.joinPath(folder.uri, name);
}

export async function activeExtension(): Promise<vscode.Extension<unknown>> {
  const ext = vscode.extensions.getExtension(extensionId);
  assert.ok(ext, `${extensionId} is installed`);
  await ext.activate();
  return ext;
}

/** The context-compactor documents currently open, by Uri string. */
export function reportDocuments(): vscode.TextDocument[] {
  return vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'context-compactor');
}

/**
 * Polls until the condition holds or the time is up; the caller asserts afterwards with its own message. `ms` is
 * raised to the generous bound (test/support/waits.ts): the wait ends when the condition holds, so only a failure
 * takes that long, and a busy machine does not fail a test.
 */
export async function waitFor(condition: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + generous(ms); !condition() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
}
