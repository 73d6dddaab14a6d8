#!/usr/bin/env node
// Makes a real Goose session with the real CLI (npm @aaif/goose-binary-*), offline against a loopback Anthropic API:
// (one block per answer: Goose stores text and a tool request of one answer as two messages, which the fake would
// count as two steps) three prompts with shell commands (one failing, one with a large output), a tree, an edit and a new file, then
// copies what Goose stored (sessions.db + WAL, into sessions-<version>/) and `goose session export --format json`.
// Usage: node scripts/agentgen/gen-goose.mjs GOOSE_BIN OUTDIR
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startToolFake } from './fake-anthropic-tools.mjs';
import { cliRunner, makeProject } from './project.mjs';

const [bin, outDir] = process.argv.slice(2);
if (!bin || !outDir) { console.error('usage: gen-goose.mjs GOOSE_BIN OUTDIR'); process.exit(2); }
// A small project: real source files to read, one file to edit, a large log.
const { root, home, proj, f } = makeProject('goose', ['src/core/cleanup/engine.ts', 'src/core/cleanup/protect.ts', 'src/core/read/pairs.ts']);

const tasks = [
  [
    { tool: 'tree', input: { path: proj, depth: 3 } },
    { tool: 'shell', input: { command: 'cat src/core/cleanup/engine.ts' } },
    { tool: 'shell', input: { command: 'cat logs/server.log' } },
    { tool: 'shell', input: { command: 'grep -n canChange src/core/cleanup/*.ts' } },
    { text: 'The engine applies rules in order through canChange; protect.ts decides what stays verbatim.' },
  ],
  [
    { tool: 'shell', input: { command: 'cat build.log' } },
    { tool: 'shell', input: { command: 'cat src/config.ts' } },
    { tool: 'edit', input: { path: f('src/config.ts'), before: 'export const retries = 3;', after: 'export const retries = 5;' } },
    { tool: 'shell', input: { command: 'git diff --stat' } },
    { text: 'Raised retries from 3 to 5 in src/config.ts.' },
  ],
  [
    { tool: 'write', input: { path: f('NOTES.md'), content: '# Notes\n\n- retries is 5 now (was 3)\n- coupon SAVE10 appears in the log\n' } },
    { tool: 'shell', input: { command: 'cat src/core/read/pairs.ts && wc -l NOTES.md' } },
    { text: 'Wrote NOTES.md with the two facts; pairs.ts repairs unpaired tool calls.' },
  ],
];

const fake = await startToolFake({ tasks });
const xdg = (d) => path.join(home, d);
const gooseEnv = (url) => ({ PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', TMPDIR: os.tmpdir(),
  XDG_CONFIG_HOME: xdg('.config'), XDG_DATA_HOME: xdg('.local/share'), XDG_STATE_HOME: xdg('.local/state'), XDG_CACHE_HOME: xdg('.cache'),
  GOOSE_DISABLE_KEYRING: '1', GOOSE_PROVIDER: 'anthropic', GOOSE_MODEL: 'claude-sonnet-4-5', GOOSE_MODE: 'auto', GOOSE_TELEMETRY_ENABLED: 'false',
  ANTHROPIC_API_KEY: 'sk-ant-loopback', ANTHROPIC_HOST: url });
const env = gooseEnv(fake.url);
const goose = cliRunner(bin, proj, env);

const prompts = [
  '[task 0] How does the cleanup engine decide what to change?',
  '[task 1] Check the build and raise the retries setting.',
  '[task 2] Write down what we changed in NOTES.md.',
];
await goose(['run', '--with-builtin', 'developer', '-t', prompts[0]]);
const id = /^(\S+) - /m.exec(await goose(['session', 'list']))?.[1];
if (!id) throw new Error('no session listed');
for (const p of prompts.slice(1)) await goose(['run', '--with-builtin', 'developer', '--resume', '--session-id', id, '-t', p]);
await fake.close();

fs.mkdirSync(outDir, { recursive: true });
const version = (await goose(['--version'])).trim();
await goose(['session', 'export', '--session-id', id, '--format', 'json'], path.join(outDir, `export-${version}.json`));
const data = path.join(home, '.local', 'share', 'goose', 'sessions');
// The store keeps its own name (Goose's databases are recognised by it) in a folder named after the version.
fs.mkdirSync(path.join(outDir, `sessions-${version}`), { recursive: true });
for (const name of fs.readdirSync(data)) {
  if (/^sessions\.db(-wal)?$/.test(name)) fs.copyFileSync(path.join(data, name), path.join(outDir, `sessions-${version}`, name));
}
console.log(`${version} ${id} → ${outDir} (${fake.requests.length} requests; scratch ${root})`);
