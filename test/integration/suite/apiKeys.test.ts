// Set/Clear API key: cancelling stores nothing, clearing works without prompts when the provider is given.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import { test } from '../harness.js';
import { activeExtension } from './fixtures.js';

test('Set API key asks for the key and stores nothing when cancelled', async () => {
  await activeExtension();
  const pending = vscode.commands.executeCommand<boolean>(CommandIds.setApiKey, 'anthropic');
  // Give the input box time to open, then press Escape the way a user would.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  assert.equal(await pending, false);
});

test('Clear API key for a named provider needs no prompt', async () => {
  assert.equal(await vscode.commands.executeCommand<boolean>(CommandIds.clearApiKey, 'openai'), true);
});
