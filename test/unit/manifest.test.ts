// The manifest (package.json) and the code agree on command ids, settings, menus and build outputs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CommandIds } from '../../src/vscode/commandIds.js';
import { settingDefaults, settingsSection, summaryProviders } from '../../src/vscode/settingKeys.js';

interface Manifest {
  main: string;
  engines: { vscode: string };
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    configuration: { properties: Record<string, { default?: unknown; enum?: unknown[] }> };
  };
  devDependencies: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as Manifest;

test('contributes exactly the command ids declared in commandIds.ts', () => {
  const contributed = manifest.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual(contributed, Object.values(CommandIds).sort());
});

test('every command shows as "Context Compactor: …" in the palette', () => {
  for (const c of manifest.contributes.commands) assert.equal(c.category, 'Context Compactor', c.command);
});

test('menus only name contributed commands', () => {
  const ids = new Set<string>(Object.values(CommandIds));
  for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
    for (const item of items) assert.ok(ids.has(item.command), `${menu}: ${item.command}`);
  }
});

test('inspect and compact sit in the editor title of .jsonl files', () => {
  const editorTitle = manifest.contributes.menus['editor/title'] ?? [];
  for (const id of [CommandIds.inspectTranscript, CommandIds.compactTranscript]) {
    const item = editorTitle.find((m) => m.command === id);
    assert.equal(item?.when, 'resourceExtname == .jsonl', id);
  }
});

test('settings in package.json match settingKeys.ts, defaults included', () => {
  const props = manifest.contributes.configuration.properties;
  const declared = Object.keys(props).sort();
  assert.deepEqual(declared, Object.keys(settingDefaults).map((k) => `${settingsSection}.${k}`).sort());
  for (const [key, value] of Object.entries(settingDefaults)) {
    assert.deepEqual(props[`${settingsSection}.${key}`]?.default, value, key);
  }
  assert.deepEqual(props[`${settingsSection}.summary.provider`]?.enum, [...summaryProviders]);
});

test('engines.vscode and @types/vscode stay on 1.100, the VS Code the integration tests run', () => {
  assert.equal(manifest.engines.vscode, '^1.100.0');
  assert.match(manifest.devDependencies['@types/vscode'] ?? '', /^~1\.100\./);
  assert.equal(manifest.main, './dist/extension.js');
});
