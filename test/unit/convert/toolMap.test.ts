// Tool calls across agents: each kind to each target's own tool, apply_patch to and from one write or edit, and what
// has no counterpart left unmapped (folded into words by the conversion).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapToolCall } from '../../../src/core/convert/toolMap';
import { editToPatch, patchToEdits, writeToPatch } from '../../../src/core/convert/patch';
import type { ToolCallBlock } from '../../../src/core/model/transcript';

const call = (name: string, input: unknown): ToolCallBlock => ({ type: 'tool_call', id: 'c1', name, input, inputText: typeof input === 'string' ? input : JSON.stringify(input), ref: { record: 0 }, tokens: 1 });

test('a shell command, whatever agent ran it, is the target\'s shell tool', () => {
  const sources = [call('Bash', { command: 'npm test' }), call('exec_command', { cmd: 'npm test' }), call('shell', { command: ['bash', '-lc', 'npm test'] }),
    call('shell_command', { command: 'npm test' }), call('run_shell_command', { command: 'npm test' }), call('bash', { command: 'npm test', description: 'x' }), call('developer__shell', { command: 'npm test' })];
  for (const c of sources) {
    assert.deepEqual(mapToolCall(c, 'claude-code', '/p'), { name: 'Bash', input: { command: 'npm test' } }, c.name);
    assert.deepEqual(mapToolCall(c, 'codex', '/p'), { name: 'exec_command', input: { cmd: 'npm test' } }, c.name);
    assert.deepEqual(mapToolCall(c, 'gemini-cli', '/p'), { name: 'run_shell_command', input: { command: 'npm test' } }, c.name);
    assert.deepEqual(mapToolCall(c, 'goose', '/p'), { name: 'shell', input: { command: 'npm test' } }, c.name);
  }
  // A working folder the call named goes with it.
  assert.deepEqual(mapToolCall(call('exec_command', { cmd: 'ls', workdir: '/w' }), 'claude-code', '/p'), { name: 'Bash', input: { command: 'cd /w && ls' } });
});

test('reads, writes and edits are the target\'s file tools; Claude Code and OpenCode get absolute paths', () => {
  assert.deepEqual(mapToolCall(call('read_file', { file_path: 'src/a.ts' }), 'claude-code', '/p'), { name: 'Read', input: { file_path: '/p/src/a.ts' } });
  assert.deepEqual(mapToolCall(call('Read', { file_path: '/p/src/a.ts' }), 'gemini-cli', '/p'), { name: 'read_file', input: { file_path: '/p/src/a.ts' } });
  assert.deepEqual(mapToolCall(call('Read', { file_path: '/p/a b.ts' }), 'codex', '/p'), { name: 'exec_command', input: { cmd: "cat '/p/a b.ts'" } });
  assert.deepEqual(mapToolCall(call('replace', { file_path: 'a.ts', old_string: 'x', new_string: 'y' }), 'claude-code', '/p'), { name: 'Edit', input: { file_path: '/p/a.ts', old_string: 'x', new_string: 'y' } });
  assert.deepEqual(mapToolCall(call('Edit', { file_path: '/p/a.ts', old_string: 'x', new_string: 'y' }), 'opencode', '/p'), { name: 'edit', input: { filePath: '/p/a.ts', oldString: 'x', newString: 'y' } });
  assert.deepEqual(mapToolCall(call('edit', { path: '/p/a.ts', before: 'x', after: 'y' }), 'gemini-cli', '/p'), { name: 'replace', input: { file_path: '/p/a.ts', old_string: 'x', new_string: 'y' } });
  assert.deepEqual(mapToolCall(call('Write', { file_path: '/p/n.md', content: 'hi\n' }), 'codex', '/p'), { name: 'apply_patch', input: '*** Begin Patch\n*** Add File: /p/n.md\n+hi\n*** End Patch\n' });
  assert.deepEqual(mapToolCall(call('Edit', { file_path: '/p/a.ts', old_string: 'x', new_string: 'y' }), 'codex', '/p'), { name: 'apply_patch', input: '*** Begin Patch\n*** Update File: /p/a.ts\n@@\n-x\n+y\n*** End Patch\n' });
});

test('apply_patch: one added file or one hunk becomes a write or an edit, and back; more stays a patch', () => {
  assert.deepEqual(patchToEdits(writeToPatch('n.md', 'a\nb\n')), { kind: 'write', path: 'n.md', content: 'a\nb\n' });
  assert.deepEqual(patchToEdits(editToPatch('a.ts', 'one\ntwo', 'one\n2')), { kind: 'edit', path: 'a.ts', oldText: 'one\ntwo', newText: 'one\n2' });
  const context = '*** Begin Patch\n*** Update File: a.ts\n@@ fn\n keep\n-old\n+new\n*** End Patch';
  assert.deepEqual(patchToEdits(context), { kind: 'edit', path: 'a.ts', oldText: 'keep\nold', newText: 'keep\nnew' });
  assert.equal(patchToEdits('*** Begin Patch\n*** Update File: a.ts\n@@\n-a\n+b\n@@\n-c\n+d\n*** End Patch'), undefined, 'two hunks');
  assert.equal(patchToEdits('*** Begin Patch\n*** Add File: a\n+x\n*** Delete File: b\n*** End Patch'), undefined, 'two files');
  assert.deepEqual(mapToolCall(call('apply_patch', context), 'claude-code', '/p'), { name: 'Edit', input: { file_path: '/p/a.ts', old_string: 'keep\nold', new_string: 'keep\nnew' } });
  assert.equal(mapToolCall(call('apply_patch', '*** Begin Patch\n*** Delete File: b\n*** End Patch'), 'gemini-cli', '/p'), undefined);
  assert.deepEqual(mapToolCall(call('apply_patch', context), 'codex', '/p'), { name: 'apply_patch', input: context });
});

test('listing, searching and globbing: the target\'s tool, or its shell', () => {
  assert.deepEqual(mapToolCall(call('list_directory', { dir_path: 'src' }), 'codex', '/p'), { name: 'exec_command', input: { cmd: 'ls -la src' } });
  assert.deepEqual(mapToolCall(call('Grep', { pattern: 'foo bar', path: 'src', glob: '*.ts' }), 'gemini-cli', '/p'), { name: 'grep_search', input: { pattern: 'foo bar', dir_path: 'src', include: '*.ts' } });
  assert.deepEqual(mapToolCall(call('grep_search', { pattern: 'foo' }), 'codex', '/p'), { name: 'exec_command', input: { cmd: 'rg -n foo' } });
  assert.deepEqual(mapToolCall(call('glob', { pattern: '**/*.md' }), 'claude-code', '/p'), { name: 'Glob', input: { pattern: '**/*.md' } });
});

test('tools no other agent has are not mapped', () => {
  for (const c of [call('TodoWrite', { todos: [] }), call('Agent', { prompt: 'x' }), call('update_plan', { plan: [] }), call('web_search', { query: 'x' }), call('Bash', {})]) {
    assert.equal(mapToolCall(c, 'codex', '/p'), undefined, c.name);
    assert.equal(mapToolCall(c, 'claude-code', '/p'), undefined, c.name);
  }
});

test('Cline / Roo and Copilot Chat tools are read too (execute_command, write_to_file, search_files, run_in_terminal, create_file)', () => {
  assert.deepEqual(mapToolCall(call('execute_command', { command: 'npm test', requires_approval: false }), 'gemini-cli', '/p'), { name: 'run_shell_command', input: { command: 'npm test' } });
  assert.deepEqual(mapToolCall(call('run_in_terminal', { command: 'ls', explanation: 'x' }), 'claude-code', '/p'), { name: 'Bash', input: { command: 'ls' } });
  assert.deepEqual(mapToolCall(call('write_to_file', { absolutePath: '/p/a.md', content: 'x\n' }), 'claude-code', '/p'), { name: 'Write', input: { file_path: '/p/a.md', content: 'x\n' } });
  assert.deepEqual(mapToolCall(call('create_file', { filePath: '/p/b.md', content: 'y' }), 'gemini-cli', '/p'), { name: 'write_file', input: { file_path: '/p/b.md', content: 'y' } });
  assert.deepEqual(mapToolCall(call('search_files', { path: 'src', regex: 'TODO', file_pattern: '*.ts' }), 'claude-code', '/p'), { name: 'Grep', input: { pattern: 'TODO', path: 'src', glob: '*.ts' } });
});
