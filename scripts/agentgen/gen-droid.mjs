#!/usr/bin/env node
// Makes a real Factory Droid session with the real CLI (npm `@factory/cli`), offline against a loopback Anthropic API
// (a BYOK custom model in ~/.factory/settings.json): three prompts with listings, reads, greps, a failing command, an
// edit and a new file, then copies the session's JSONL and its .settings.json sidecar (token usage).
// Usage: node scripts/agentgen/gen-droid.mjs DROID_BIN OUTDIR [--compact]
//   --compact: Droid's own compaction: `compactionTokenLimit: 6000` in its settings makes it compact between requests
//   (a `compaction_state` event each time; the fake answers its summary request with a scripted summary), and a
//   fourth prompt runs after the last one. REQUESTS_OUT=FILE keeps the requests the fake received.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startToolFake } from './fake-anthropic-tools.mjs';
import { cliRunner, makeProject } from './project.mjs';

const [bin, outDir, flag] = process.argv.slice(2);
const compact = flag === '--compact';
if (!bin || !outDir) { console.error('usage: gen-droid.mjs DROID_BIN OUTDIR'); process.exit(2); }
const { root, home, proj, f } = makeProject('droid',
  ['src/core/cleanup/engine.ts', 'src/core/cleanup/protect.ts', 'src/core/cleanup/records.ts', 'src/core/read/pairs.ts', 'src/core/read/turns.ts'],
  { 'brief.txt': 'Cart totals are wrong when a coupon applies twice.\nKeep the public API unchanged.\n' });

const run = (command, summary) => ({ command, summary, riskLevel: 'low', riskLevelReason: 'read-only inspection' });
const tasks = [
  [
    { thinking: 'Start with the layout, then the engine.', say: 'I will look at the layout first.', tool: 'LS', input: { directory_path: f('src/core') } },
    { tool: 'Read', input: { file_path: f('src/core/cleanup/engine.ts') } },
    { tool: 'Read', input: { file_path: f('logs/server.log') } },
    { tool: 'Grep', input: { pattern: 'canChange', path: proj, output_mode: 'content', line_numbers: true } },
    { tool: 'Read', input: { file_path: f('src/core/cleanup/protect.ts') } },
    { tool: 'Glob', input: { patterns: ['**/*.ts'], folder: proj } },
    { text: 'The engine applies rules in order through canChange; protect.ts decides what stays verbatim.' },
  ],
  [
    { say: 'Running the check first.', tool: 'Execute', input: run('cat build.log', 'Show the last build log') },
    { thinking: 'No log; read the config instead.', tool: 'Read', input: { file_path: f('src/config.ts') } },
    { tool: 'Edit', input: { file_path: f('src/config.ts'), old_str: 'export const retries = 3;', new_str: 'export const retries = 5;' } },
    { tool: 'Execute', input: run('git diff --stat', 'Show what changed') },
    { text: 'Raised retries from 3 to 5 in src/config.ts.' },
  ],
  [
    { tool: 'Execute', input: run('tail -n 40 logs/server.log', 'Show the end of the server log') },
    { tool: 'Read', input: { file_path: f('src/core/read/turns.ts') } },
    { tool: 'Create', input: { file_path: f('NOTES.md'), content: '# Notes\n\n- retries is 5 now (was 3)\n- coupon bug: see brief.txt\n' } },
    { tool: 'Execute', input: run('wc -l NOTES.md src/core/cleanup/*.ts', 'Count lines') },
    { text: 'Wrote NOTES.md with the two facts.' },
  ],
  [{ text: 'retries is 5 (src/config.ts), raised from 3.' }],
];

// The compaction's summary names only the requests the summarised history holds (a model's summary knows no more).
const summary = (body) => `Summary of the session so far. The user asked: ${[...new Set(body.match(/\[task \d\][^"\\.?]*[.?]/g) ?? [])].join(' / ')}. Work continues from the latest request.`;
const fake = await startToolFake({ tasks, ...(compact ? { summary } : {}) });
fs.mkdirSync(path.join(home, '.factory'), { recursive: true });
// BYOK: the model Droid calls is this custom model; `-m custom:<model>` selects it.
fs.writeFileSync(path.join(home, '.factory', 'settings.json'), JSON.stringify({
  customModels: [{ model: 'claude-sonnet-4-5', displayName: 'Loopback', baseUrl: fake.url, apiKey: 'sk-loopback', provider: 'anthropic', maxOutputTokens: 8192 }],
  ...(compact ? { compactionTokenLimit: 6000 } : {}),
}, null, 2));
const env = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', TMPDIR: os.tmpdir() };
const droid = cliRunner(bin, proj, env);

// One `droid exec` reading the prompts as stream-json from stdin: one session of three turns. (`exec -s <id>` needs a
// Factory login even with a custom model; `exec --fork` does not, but makes a new session each time.)
const prompts = [
  '[task 0] How does the cleanup engine decide what to change? See brief.txt for the bug.',
  '[task 1] Check the build and raise the retries setting.',
  '[task 2] Write down what we changed in NOTES.md.',
  ...(compact ? ['[task 3] Which retries value holds now?'] : []),
];
await new Promise((resolve, reject) => {
  const child = spawn(bin, ['exec', '--auto', 'high', '-m', 'custom:claude-sonnet-4-5', '--input-format', 'stream-json', '-o', 'stream-json'],
    { cwd: proj, env, stdio: ['pipe', 'ignore', 'pipe'], timeout: 300_000 });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  child.on('error', reject);
  child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`droid exec exited ${code}: ${stderr.slice(-800)}`))));
  child.stdin.end(prompts.map((content) => JSON.stringify({ role: 'user', content })).join('\n') + '\n');
});
const sessions = path.join(home, '.factory', 'sessions');
const [slug] = fs.readdirSync(sessions);
const id = fs.readdirSync(path.join(sessions, slug)).find((n) => n.endsWith('.jsonl'))?.slice(0, -6);
if (!id) throw new Error('no session written');
await fake.close();
// REQUESTS_OUT=FILE keeps what the fake received (one JSON line per request), to compare with what a reader rebuilds.
if (process.env.REQUESTS_OUT) fs.writeFileSync(process.env.REQUESTS_OUT, fake.requests.map((r) => JSON.stringify(r)).join('\n') + '\n');

fs.mkdirSync(outDir, { recursive: true });
const version = (await droid(['--version'])).trim();
for (const ext of ['.jsonl', '.settings.json']) fs.copyFileSync(path.join(sessions, slug, id + ext), path.join(outDir, `droid-${version}${ext}`));
console.log(`${version} ${id} (${slug}) → ${outDir} (${fake.requests.length} requests; scratch ${root})`);
