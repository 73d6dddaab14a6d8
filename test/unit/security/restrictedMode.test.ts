// Restricted Mode: every command is classified; what writes or calls a provider is behind the trust gate.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import { mayRun, mayRunFully, RESTRICTED, type TrustGate } from '../../../src/vscode/trust.js';

const REPO = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));

function gate(trusted: boolean): TrustGate & { warnings: string[] } {
  const warnings: string[] = [];
  return { trusted: () => trusted, warn: (m) => warnings.push(m), warnings };
}

test('the manifest declares limited support for untrusted workspaces and restricts provider settings and roots', () => {
  const u = manifest.capabilities.untrustedWorkspaces;
  assert.equal(u.supported, 'limited');
  assert.match(u.description, /nothing is written and no summary provider is called/);
  for (const key of ['summary.provider', 'summary.baseUrl', 'sessionRoots']) assert.ok(u.restrictedConfigurations.includes(`contextCompactor.${key}`), key);
});

test('every contributed command is classified for Restricted Mode', () => {
  const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual(Object.keys(RESTRICTED).sort(), contributed);
  assert.equal(RESTRICTED[CommandIds.countExactly], 'trusted');
  assert.equal(RESTRICTED[CommandIds.compactTranscript], 'preview');
});

test('untrusted: the provider count does not run, compaction previews but does not write; trusted: both run', () => {
  const untrusted = gate(false);
  assert.equal(mayRun(untrusted, CommandIds.countExactly, 'Counting'), false);
  assert.equal(mayRun(untrusted, CommandIds.compactTranscript, 'Compacting'), true);
  assert.equal(mayRunFully(untrusted, CommandIds.compactTranscript, 'Writing the compacted transcript'), false);
  assert.equal(mayRunFully(untrusted, CommandIds.inspectTranscript, 'Inspecting'), true);
  assert.equal(untrusted.warnings.length, 2);
  assert.match(untrusted.warnings[1]!, /Writing the compacted transcript needs a trusted workspace/);
  const trusted = gate(true);
  assert.equal(mayRun(trusted, CommandIds.countExactly, 'Counting'), true);
  assert.equal(mayRunFully(trusted, CommandIds.compactTranscript, 'Writing'), true);
  assert.deepEqual(trusted.warnings, []);
});

test('extension code that writes files or calls a provider goes through the trust gate', () => {
  const dir = join(REPO, 'src', 'vscode');
  const risky = /\b(writeCompaction|withSummary|createSummarizer|countExactly|writeFileAtomic|scanUsage|openResumeTerminal)\(/;
  // Sub-folders too (compact/accept.ts writes).
  // resumeTerminal.ts defines openResumeTerminal; its callers (a terminal runs a command) must check.
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && f !== 'resumeTerminal.ts' && risky.test(readFileSync(join(dir, f), 'utf8')));
  assert.ok(files.length >= 3, String(files));
  for (const f of files) {
    const src = readFileSync(join(dir, f), 'utf8');
    assert.match(src, /mayRunFully\(|mayRun\(|trust\.trusted\(\)|trusted\?\.\(\)/, `${f} must check workspace trust`);
  }
  // The composition root wires the gate to VS Code's own trust state.
  assert.match(readFileSync(join(REPO, 'src', 'extension.ts'), 'utf8'), /trusted: \(\) => vscode\.workspace\.isTrusted/);
});
