// A legacy Gemini CLI chat document cut short (the CLI stopped mid-write) or followed by other text is refused in one
// line that says what is wrong and where; it read "no sessionId/projectHash header", though the header is there.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readTranscriptFile, TranscriptError } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const LEGACY = path.join(FIXTURES, 'real', 'gemini-cli', 'idaho-nover-session-summary-toolcalls.json');

test('a damaged legacy Gemini CLI chat: "the chat document is not valid JSON (at character N)", never a missing header', async (t) => {
  const dir = tmpDir(t);
  const whole = fs.readFileSync(LEGACY);
  const cases: [string, Buffer][] = [['cut.json', whole.subarray(0, 200_000)], ['trailing.json', Buffer.concat([whole, Buffer.from('garbage\n')])], ['twice.json', Buffer.concat([whole, whole])]];
  for (const [name, bytes] of cases) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    await assert.rejects(readTranscriptFile(file), (e: unknown) => {
      assert.ok(e instanceof TranscriptError, String(e));
      assert.match(e.message, /the chat document is not valid JSON \((?:at character \d+|it ends early)\)$/, name);
      assert.doesNotMatch(e.message, /header/);
      return true;
    });
  }
  // The document itself still reads.
  assert.ok((await readTranscriptFile(LEGACY)).session.messages.length > 0);
});
