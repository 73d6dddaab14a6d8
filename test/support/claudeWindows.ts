// A Claude Code session's context window as both surfaces say it: the reader (inspect, the composition header) and
// the usage scan (the Sessions view and status bar), for lines written as a session of a projects folder.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readTranscriptFile } from '../../src/node/readTranscriptFile';
import { statusOf } from '../../src/node/sessions/statusModel';
import { scanUsage } from '../../src/node/usage/scanner';
import { tmpDir } from './tmp';

export async function claudeWindows(t: Parameters<typeof tmpDir>[0], name: string, lines: readonly string[]): Promise<{ reader: number | undefined; scan: string }> {
  const home = tmpDir(t);
  const file = path.join(home, '.claude', 'projects', '-tmp-project', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.join('\n') + '\n');
  const { report } = await scanUsage({ env: { HOME: home }, includeDefaults: true, threshold: 150_000, useCache: false });
  return { reader: (await readTranscriptFile(file)).session.contextWindow, scan: statusOf([report.sessions.find((s) => s.file === file)!], 150_000)!.text };
}
