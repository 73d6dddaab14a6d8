// The 8 MB real Claude Code transcript shipped (gzipped) for benchmarks, unpacked once for tests.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';

export function bigClaudeFixture(): string {
  const src = path.resolve(__dirname, '..', '..', 'bench', 'data', 'claude-8mb.jsonl.gz');
  const out = path.join(os.tmpdir(), `cc-test-claude-8mb-${fs.statSync(src).size}.jsonl`);
  if (!fs.existsSync(out)) {
    const tmp = `${out}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, gunzipSync(fs.readFileSync(src)));
    fs.renameSync(tmp, out);
  }
  return out;
}
