// The independent probes read Qwen Code's and Copilot CLI's real sessions (made by the real CLIs, test/fixtures) from
// their raw records: the typed requests (latest first), the edited file, the failed call's error, the command, the id.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { extractProbes } from '../../../src/core/probes/extract';
import type { ProbeKind } from '../../../src/core/probes/types';
import { readRawSource } from '../../../src/node/eval/rawSource';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const QWEN_DIR = path.join(FIXTURES, 'qwen-code', 'session-0.24.4');
const QWEN = path.join(QWEN_DIR, fs.readdirSync(QWEN_DIR).find((f) => f.endsWith('.jsonl'))!);
const COPILOT_DIR = path.join(FIXTURES, 'copilot-cli', 'session-1.0.102');
const COPILOT = path.join(COPILOT_DIR, fs.readdirSync(COPILOT_DIR).find((f) => /^[0-9a-f-]{36}$/.test(f))!, 'events.jsonl');

for (const [agent, file, error] of [['Qwen Code', QWEN, "error (open): params must have required property 'file_path'"], ['Copilot CLI', COPILOT, 'error (open): Path does not exist']] as const) {
  test(`${agent}: probes from the raw records find the requests, the edited file, the failed call, the command and the ticket`, async () => {
    const { session } = await readTranscriptFile(file);
    const probes = extractProbes(readRawSource(file, session));
    const labels = (kind: ProbeKind): string[] => probes.filter((p) => p.kind === kind).map((p) => p.label);
    assert.deepEqual(labels('requests'), ['request: Raise the rate to 8 percent.', 'request: What does price.js compute?']);
    assert.ok(labels('files').some((l) => l.endsWith('/repo/price.js')), labels('files').join('\n'));
    assert.deepEqual(labels('errors'), [error]);
    assert.deepEqual(labels('commands'), ['command ls -la']);
    assert.deepEqual(labels('issue'), ['issue TAX-4417']);
  });
}
