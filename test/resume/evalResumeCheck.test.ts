// `eval --resume-check`: the real Claude Code and Codex CLIs resume each written output against the product's own
// loopback model, and each row's resumeBytesRatio is the request bytes they sent for it over those for the original.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { EvalReport, EvalRow } from '../../src/core/eval/types';
import { cliInProcess, sha256 } from '../support/cliProcess';
import { startFakeAnthropic } from '../support/fakeAnthropic';
import type { FakeServer } from '../support/fakeHttp';
import { CLAUDE_SAMPLE, CODEX_SAMPLE, FIXTURES } from '../support/fixtures';
import { agentBin } from './harness';
import { KEY } from './resumeSuite';

const GEMINI = path.join(FIXTURES, 'real', 'gemini-cli', 'ticketing-nover-jsonl-format-windows.jsonl');
const WRITTEN = ['cleanup', 'summary', 'cleanup+summary'] as const;
const tempEntries = (): string[] => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('cc-resume-check-'));

describe('eval --resume-check with the real agent CLIs (loopback model)', { timeout: 600_000 }, () => {
  let summarizer: FakeServer;
  let report: EvalReport;
  let stderr = '';
  const hashes = new Map<string, string>();
  const tempBefore = tempEntries();
  const row = (file: string, s: string): EvalRow => report.rows.find((r) => r.file === file && r.strategy === s)!;

  before(async () => {
    const env = { CLAUDE_BIN: agentBin('claude'), CODEX_BIN: agentBin('codex'), ANTHROPIC_API_KEY: KEY, PATH: '/usr/bin:/bin' };
    summarizer = await startFakeAnthropic(KEY);
    for (const f of [CLAUDE_SAMPLE, CODEX_SAMPLE]) hashes.set(f, sha256(f));
    const r = await cliInProcess(env, 'eval', CLAUDE_SAMPLE, CODEX_SAMPLE, GEMINI, '--resume-check', '--json', '--jobs', '1',
      '--strategies', 'cleanup,summary,cleanup+summary,rolling', '--provider', 'anthropic', '--base-url', summarizer.url);
    stderr = r.stderr;
    assert.equal(r.code, 0, r.stderr);
    report = JSON.parse(r.stdout) as EvalReport;
  });
  after(() => summarizer?.close());

  it('every written output of a Claude Code and a Codex file resumes, and sends fewer bytes than the original', (t) => {
    assert.equal(report.resumeCheck, true);
    t.diagnostic(report.rows.filter((r) => r.resumeBytesRatio !== undefined).map((r) => `${r.format} ${r.strategy}: ${r.resumeBytesRatio}`).join('; '));
    for (const file of [CLAUDE_SAMPLE, CODEX_SAMPLE]) {
      for (const s of WRITTEN) {
        const r = row(file, s);
        assert.equal(r.status, 'ok', `${s} ${path.basename(file)}: ${r.failure} ${stderr}`);
        assert.ok(typeof r.resumeBytesRatio === 'number' && r.resumeBytesRatio > 0 && r.resumeBytesRatio < 1, `${s} ${path.basename(file)}: ${r.resumeBytesRatio} ${r.notes?.join(' | ')}`);
      }
      // The samples' resume requests are at least halved by cleanup (test/resume/*Resume.test.ts (d)), and the
      // summary replaces the cleaned aging part, so what the agent sends shrinks further.
      assert.ok(row(file, 'cleanup').resumeBytesRatio! <= 0.5, `cleanup ${row(file, 'cleanup').resumeBytesRatio}`);
      assert.ok(row(file, 'cleanup+summary').resumeBytesRatio! < row(file, 'cleanup').resumeBytesRatio!);
      // Rolling is a replay of what the agent would hold, not a file it resumes: no figure.
      assert.equal(row(file, 'rolling').resumeBytesRatio, undefined);
    }
    for (const s of WRITTEN) assert.ok(report.summary[s]!.medianResumeBytesRatio! > 0, s);
  });

  it('a Gemini CLI file is not checked, and its rows say so', () => {
    const r = row(GEMINI, 'cleanup');
    assert.equal(r.status, 'ok');
    assert.equal(r.resumeBytesRatio, undefined);
    assert.ok(r.notes?.some((n) => /resume check: gemini-cli is not checked/.test(n)), r.notes?.join(' | '));
  });

  it('originals untouched, no temporary home left behind', () => {
    for (const [f, h] of hashes) assert.equal(sha256(f), h, f);
    assert.deepEqual(tempEntries().filter((x) => !tempBefore.includes(x)), []);
  });

  it('an agent CLI that cannot resume the original: ratio null and the rows say why, the run goes on', async () => {
    const r = await cliInProcess({ CLAUDE_BIN: '/bin/false', PATH: '/usr/bin:/bin' }, 'eval', CLAUDE_SAMPLE, '--resume-check', '--json', '--strategies', 'cleanup');
    assert.equal(r.code, 0, r.stderr);
    const x = (JSON.parse(r.stdout) as EvalReport).rows[0]!;
    assert.equal(x.status, 'ok');
    assert.equal(x.resumeBytesRatio, null);
    assert.ok(x.notes?.some((n) => /the original did not resume/.test(n)), x.notes?.join(' | '));
  });
});
