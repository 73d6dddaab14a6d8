// "Compact transcript" in real VS Code: diff preview, Accept writes a new transcript, Discard writes nothing.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import type { CompactOutcome } from '../../../src/vscode/compactCommand.js';
import { test } from '../harness.js';
import { activeExtension, fixture } from './fixtures.js';

const sha = (p: string): string => createHash('sha256').update(fs.readFileSync(p)).digest('hex');

/** The real 1 MB Claude Code sample, copied outside the workspace (so Accept must use compacted/). */
function outsideCopy(): string {
  const src = path.resolve(fixture('.').fsPath, '..', '..', 'fixtures', 'claude-code', 'sample.jsonl');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-int-'));
  const file = path.join(dir, 'session.jsonl');
  fs.copyFileSync(src, file);
  return file;
}

const diffTabs = (): vscode.Tab[] => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff);

test('Compact → diff preview → Accept writes a new transcript under compacted/, original untouched', async () => {
  await activeExtension();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const input = outsideCopy();
  const before = sha(input);
  const result = (await vscode.commands.executeCommand(CommandIds.compactTranscript, vscode.Uri.file(input), { decision: 'accept' })) as CompactOutcome | undefined;
  assert.ok(result?.output, 'a compacted transcript was written');
  try {
    assert.equal(path.dirname(result.output), path.join(fixture('.').fsPath, 'compacted'));
    assert.equal(sha(input), before, 'the original is never modified');
    assert.ok(result.report.reduction > 0.7, `reduction ${result.report.reduction}`);
    assert.equal(result.report.pairsIntact, true);
    assert.match(result.report.resumeCommand, /^claude --resume [0-9a-f-]{36}$/);
    const diff = diffTabs()[0];
    assert.ok(diff, 'a diff editor shows original vs compacted');
    const right = await vscode.workspace.openTextDocument((diff.input as vscode.TabInputTextDiff).modified);
    assert.match(right.getText(), /\[context-compactor: Read result ok/, 'tool records are visible in the preview');
    const written = fs.readFileSync(result.output, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { sessionId?: string });
    assert.ok(written.every((r) => r.sessionId === result.report.sessionId));
  } finally {
    fs.rmSync(path.dirname(result.output), { recursive: true, force: true });
    fs.rmSync(path.dirname(input), { recursive: true, force: true });
  }
});

test('Discard writes nothing', async () => {
  const input = outsideCopy();
  const result = (await vscode.commands.executeCommand(CommandIds.compactTranscript, vscode.Uri.file(input), { decision: 'discard' })) as CompactOutcome | undefined;
  assert.ok(result);
  assert.equal(result.output, undefined);
  assert.deepEqual(fs.readdirSync(path.dirname(input)), ['session.jsonl']);
  assert.equal(fs.existsSync(path.join(fixture('.').fsPath, 'compacted')), false);
  fs.rmSync(path.dirname(input), { recursive: true, force: true });
});
