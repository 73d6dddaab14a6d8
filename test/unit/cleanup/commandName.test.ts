// The command name a shell call adds to its identifiers: the first word, found without splitting the whole command.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandName } from '../../../src/core/cleanup/identifiers';

/** What commandName did before: trim, split the whole command on white space, take the first piece. */
const splitWhole = (cmd: unknown): string | undefined => {
  const s = Array.isArray(cmd) ? cmd.map(String).join(' ') : typeof cmd === 'string' ? cmd : undefined;
  const word = s?.trim().split(/\s+/)[0];
  return word && /^[\w./-]+$/.test(word) ? word : undefined;
};

test('commandName: the first word of the command, as trimming and splitting the whole command gave it', () => {
  const heredoc = `cat > notes.md <<'EOF'\n${'word '.repeat(5000)}\nEOF`;
  const cases: unknown[] = ['git status', '  \t\n npm test', '', ' \n\t ', '\u00a0ls\u2028-la', heredoc, ['bash', '-lc', 'x y'], ['  rg', 'foo'], 'é-tool run', '$(pwd)/x.sh', 42];
  for (const command of cases) assert.equal(commandName({ command }), splitWhole(command), JSON.stringify(command).slice(0, 60));
  assert.equal(commandName({ cmd: heredoc }), 'cat');
  assert.equal(commandName({ command: '\u00a0ls\u2028-la' }), 'ls');
  assert.equal(commandName({ command: ' \n ' }), undefined);
});
