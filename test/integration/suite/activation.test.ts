// The extension activates and the manifest's commands and settings are live in VS Code.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { test } from '../harness.js';
import { activeExtension } from './fixtures.js';

interface Contributes {
  commands: { command: string }[];
  configuration: { properties: Record<string, { default?: unknown }> };
}

test('the extension activates', async () => {
  const ext = await activeExtension();
  assert.equal(ext.isActive, true);
});

test('every contributed command is registered', async () => {
  const ext = await activeExtension();
  const contributed = (ext.packageJSON.contributes as Contributes).commands.map((c) => c.command);
  assert.ok(contributed.length >= 4, `manifest lists ${contributed.length} commands`);
  const registered = new Set(await vscode.commands.getCommands(true));
  assert.deepEqual(contributed.filter((id) => !registered.has(id)), []);
});

test('every contributed setting is known to VS Code with its default', async () => {
  const ext = await activeExtension();
  const props = (ext.packageJSON.contributes as Contributes).configuration.properties;
  const config = vscode.workspace.getConfiguration();
  for (const [key, schema] of Object.entries(props)) {
    assert.deepEqual(config.inspect(key)?.defaultValue, schema.default, key);
  }
});
