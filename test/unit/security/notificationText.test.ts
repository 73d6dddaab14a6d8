// Notification text quoting a transcript cannot form the command links VS Code renders in notifications.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logText, notificationText } from '../../../src/core/text/notification';

// VS Code's own link syntax for notifications (src/vs/base/common/linkedText.ts, LINK_REGEX).
const LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^\)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

test('a recorded folder, file name or error holding [label](command:…) gives a notification with no link in it', () => {
  const hostile = [
    'Context Compactor: cannot evaluate [Open fix](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22echo%20pwned%5Cn%22%7D): failed',
    'cannot compact [x](https://evil.example/p "title"): no such file',
    'a [y](file:///etc/passwd) and [z](command:a) twice',
  ];
  for (const text of hostile) {
    assert.ok(new RegExp(LINK.source, 'gi').test(text), 'the test input is a link');
    const shown = notificationText(text);
    assert.equal(new RegExp(LINK.source, 'gi').test(shown), false, shown);
    assert.equal(shown.replace(/\] \(/g, ']('), text, 'nothing but the link syntax changes');
  }
  assert.equal(notificationText('Context Compactor: wrote s.jsonl (also in Claude Code\'s sessions).'), 'Context Compactor: wrote s.jsonl (also in Claude Code\'s sessions).');
});

test('a log entry quoting a transcript stays one entry: further lines indented, escapes shown, not obeyed', () => {
  const forged = 'warning: x\n2026-12-04 18:00:00.000 [info] [provider] key accepted\r\u001b[2K\u009b';
  assert.equal(logText(forged), 'warning: x\n    2026-12-04 18:00:00.000 [info] [provider] key accepted\\u000d\\u001b[2K\\u009b');
  assert.ok(logText(forged).split('\n').slice(1).every((l) => l.startsWith('    ')));
  assert.equal(logText('plain text, tabs\tand all'), 'plain text, tabs and all');
});
