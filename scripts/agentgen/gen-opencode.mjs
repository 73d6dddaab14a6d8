#!/usr/bin/env node
// Makes a real OpenCode session with the real CLI (npm `opencode-ai`), offline against a loopback Anthropic API:
// four prompts with reads, greps, a failing command, an edit, a new file and an attached file, then copies what
// OpenCode stored (opencode.db + WAL for ≥ 1.2, the storage/ JSON tree before) and `opencode export`'s JSON.
// Usage: node scripts/agentgen/gen-opencode.mjs OPENCODE_BIN OUTDIR [opencode|kilo]
// `kilo`: the same with Kilo CLI (npm `@kilocode/cli`, a fork of OpenCode): kilo.json, ~/.local/share/kilo, kilo.db.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startToolFake } from './fake-anthropic-tools.mjs';
import { cliRunner, makeProject } from './project.mjs';

const [bin, outDir, flavor = 'opencode'] = process.argv.slice(2);
if (!bin || !outDir || !['opencode', 'kilo'].includes(flavor)) { console.error('usage: gen-opencode.mjs OPENCODE_BIN OUTDIR [opencode|kilo]'); process.exit(2); }
// A small project: real source files to read and grep, one file to edit, a large log, a brief to attach.
const { root, home, proj, f } = makeProject(flavor,
  ['src/core/cleanup/engine.ts', 'src/core/cleanup/protect.ts', 'src/core/cleanup/fold.ts', 'src/core/cleanup/records.ts', 'src/core/read/pairs.ts', 'src/core/tokens/estimate.ts'],
  { 'brief.txt': 'Cart totals are wrong when a coupon applies twice.\nKeep the public API unchanged.\n' });

const tasks = [
  [
    { thinking: 'Start with the layout, then the engine.', say: 'I will look at the layout first.', tool: 'bash', input: { command: 'ls -la src src/core', description: 'List the source folders' } },
    { tool: 'read', input: { filePath: f('src/core/cleanup/engine.ts') } },
    { tool: 'bash', input: { command: 'cat logs/server.log', description: 'Show the server log' } },
    { tool: 'grep', input: { pattern: 'canChange', path: proj } },
    { tool: 'read', input: { filePath: f('src/core/cleanup/protect.ts') } },
    { tool: 'glob', input: { pattern: '**/*.ts', path: proj } },
    { text: 'The engine applies rules in order through canChange; protect.ts decides what stays verbatim.' },
  ],
  [
    { say: 'Running the check first.', tool: 'bash', input: { command: 'cat build.log', description: 'Show the last build log' } },
    { thinking: 'No log; read the config instead.', tool: 'read', input: { filePath: f('src/config.ts') } },
    { tool: 'edit', input: { filePath: f('src/config.ts'), oldString: 'export const retries = 3;', newString: 'export const retries = 5;' } },
    { tool: 'bash', input: { command: 'git diff --stat', description: 'Show what changed' } },
    { text: 'Raised retries from 3 to 5 in src/config.ts.' },
  ],
  [
    { tool: 'read', input: { filePath: f('logs/server.log') } },
    { tool: 'write', input: { filePath: f('NOTES.md'), content: '# Notes\n\n- retries is 5 now (was 3)\n- coupon bug: see brief.txt\n' } },
    { tool: 'read', input: { filePath: f('src/core/cleanup/records.ts') } },
    { tool: 'bash', input: { command: 'wc -l NOTES.md src/core/cleanup/*.ts', description: 'Count lines' } },
    { text: 'Wrote NOTES.md with the two facts.' },
  ],
  [
    { tool: 'read', input: { filePath: f('src/core/read/pairs.ts') } },
    { tool: 'grep', input: { pattern: 'export function', path: f('src/core') } },
    { text: 'pairs.ts repairs unpaired tool calls; the exported functions are listed above.' },
  ],
];

const fake = await startToolFake({ tasks });
const config = { $schema: 'https://opencode.ai/config.json', model: 'anthropic/claude-sonnet-4-5', autoupdate: false, share: 'disabled',
  provider: { anthropic: { options: { baseURL: `${fake.url}/v1`, apiKey: 'sk-loopback' } } } };
fs.mkdirSync(path.join(home, '.config', flavor), { recursive: true });
fs.writeFileSync(path.join(home, '.config', flavor, `${flavor}.json`), JSON.stringify(config, null, 2));
const env = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', TMPDIR: os.tmpdir(), OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1',
  KILO_DISABLE_MODELS_FETCH: '1', KILO_DISABLE_AUTOUPDATE: '1', KILO_TELEMETRY_DISABLED: '1' };
const oc = cliRunner(bin, proj, env);

const prompts = [
  '[task 0] How does the cleanup engine decide what to change? The brief is attached.',
  '[task 1] Check the build and raise the retries setting.',
  '[task 2] Write down what we changed in NOTES.md.',
  '[task 3] What does pairs.ts do?',
];
await oc(['run', '-f', f('brief.txt'), '--', prompts[0]]);
const id = /ses_[0-9A-Za-z]+/.exec(await oc(['session', 'list']))?.[0];
if (!id) throw new Error('no session listed');
for (const p of prompts.slice(1)) await oc(['run', '--session', id, '--', p]);
await fake.close();

fs.mkdirSync(outDir, { recursive: true });
const version = (await oc(['--version'])).trim();
const exportFile = path.join(outDir, `export-${version}.json`);
fs.writeFileSync(exportFile, (await oc(['export', id], exportFile)).replace(/^[^{]*/, ''));
const data = path.join(home, '.local', 'share', flavor);
for (const name of fs.readdirSync(data)) {
  if (/^(opencode|kilo).*\.db(-wal)?$/.test(name)) fs.copyFileSync(path.join(data, name), path.join(outDir, name.replace(/^(opencode|kilo)/, `$1-${version}`)));
}
if (fs.existsSync(path.join(data, 'storage', 'session'))) {
  for (const kind of ['session', 'message', 'part', 'project']) {
    const from = path.join(data, 'storage', kind);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(outDir, `storage-${version}`, kind), { recursive: true });
  }
}
console.log(`${version} ${id} → ${outDir} (${fake.requests.length} requests; scratch ${root})`);
