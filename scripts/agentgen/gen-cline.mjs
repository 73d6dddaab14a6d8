// Makes real Cline task folders: the real Cline CLI (npm `cline`, pinned in scripts/install-cline.sh) runs offline
// against a loopback Anthropic API that scripts its steps (reads, a failing command, writes, edits), over a copy
// of this repository's src/core, for TURNS turns (the first a new task, the next ones resumed with `--taskId`).
// Usage: node scripts/agentgen/gen-cline.mjs OUTDIR [TURNS] [--truncate]
//   --truncate: one request reports a context near the model's window, so Cline truncates its own history
//   (conversationHistoryDeletedRange, context_history.json) as it does in long VS Code sessions.
// OUTDIR gets tasks/<id>/ (the task folder as Cline wrote it), state/taskHistory.json and requests.log.jsonl.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStepsFake } from './fake-anthropic-steps.mjs';

const args = process.argv.slice(2);
const truncate = args.includes('--truncate');
const [outDir, turnsArg = '3'] = args.filter((a) => !a.startsWith('--'));
if (!outDir) { console.error('usage: gen-cline.mjs OUTDIR [TURNS] [--truncate]'); process.exit(2); }
const repo = path.resolve(import.meta.dirname, '..', '..');
const entry = execFileSync(path.join(repo, 'scripts', 'install-cline.sh'), { encoding: 'utf8' }).trim().split(' at ').pop();

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gen-cline-')));
const home = path.join(root, 'home');
const work = path.join(root, 'work');
fs.cpSync(path.join(repo, 'src', 'core'), path.join(work, 'src'), { recursive: true });
const data = path.join(home, '.cline', 'data');
fs.mkdirSync(data, { recursive: true });

const sources = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p); else if (e.name.endsWith('.ts')) sources.push(path.relative(work, p));
  }
})(path.join(work, 'src'));
sources.sort();
const big = sources.filter((f) => fs.statSync(path.join(work, f)).size > 6000);
let seed = 7;
const pick = (a) => a[(seed = (seed * 1103515245 + 12345) % 2147483648) % a.length];
const topics = ['estimateTokens', 'canChange', 'requireLineText', 'blocksByRecord', 'calibrate', 'splitAging'];

function turnSteps(t) {
  const topic = topics[t % topics.length];
  const note = path.join(work, `NOTES-${t + 1}.md`);
  const steps = [
    { thinking: `The user wants to know how ${topic} is used. I will list the sources first, then read the files that mention it.`, tool: 'list_files', input: { path: 'src', recursive: true, task_progress: `- [ ] Find ${topic}\n- [ ] Read the code\n- [ ] Write notes` } },
    { tool: 'execute_command', input: { command: `grep -rn "${topic}" src | head -60`, requires_approval: false } },
  ];
  for (let i = 0; i < 3; i++) steps.push({ say: i === 0 ? `Reading the files involved in ${topic}.` : undefined, tool: 'read_file', input: { path: pick(big) } });
  steps.push({ tool: 'execute_command', input: { command: `node -e "require('./src/${topic}-missing.js')"`, requires_approval: false } });
  steps.push({ tool: 'read_file', input: { path: pick(big) } });
  steps.push({ tool: 'write_to_file', input: { absolutePath: note, content: `# Notes on ${topic}\n\n- Defined in src/; used by the cleanup engine.\n- Failing require: src/${topic}-missing.js (MODULE_NOT_FOUND)\n` } });
  steps.push({ tool: 'replace_in_file', input: { absolutePath: note, diff: `------- SEARCH\n# Notes on ${topic}\n=======\n# Notes on ${topic} (turn ${t + 1})\n+++++++ REPLACE` } });
  steps.push({ thinking: 'The notes are written; time to report back.', tool: 'attempt_completion', input: { result: `Turn ${t + 1}: ${topic} is defined under src/ and used by the cleanup engine; notes are in NOTES-${t + 1}.md. The require of src/${topic}-missing.js fails with MODULE_NOT_FOUND, as expected.` } });
  return steps;
}

const turns = Number(turnsArg);
const steps = [];
for (let t = 0; t < turns; t++) steps.push(...turnSteps(t));
// Cline truncates when the previous request's tokens reach the window less its buffer (200k − 40k for Claude 4.5).
// The first time it only drops duplicate file reads (context_history.json); still over, it drops half the history.
if (truncate) for (const k of [0.55, 0.6, 0.65]) steps[Math.floor(steps.length * k)].usage = { cacheRead: 170_000 };

const log = path.join(root, 'requests.log.jsonl');
const fake = await startStepsFake(steps, log);
fs.writeFileSync(path.join(data, 'globalState.json'), JSON.stringify({
  actModeApiProvider: 'anthropic', planModeApiProvider: 'anthropic',
  actModeApiModelId: 'claude-sonnet-4-5-20250929', planModeApiModelId: 'claude-sonnet-4-5-20250929',
  anthropicBaseUrl: fake.url, welcomeViewCompleted: true, telemetrySetting: 'disabled',
}, null, 2));
fs.writeFileSync(path.join(data, 'secrets.json'), JSON.stringify({ apiKey: 'sk-ant-offline-fake' }));
const env = { PATH: process.env.PATH, LANG: 'C.UTF-8', HOME: home, TMPDIR: os.tmpdir(), CLINE_NO_AUTO_UPDATE: '1' };

const prompts = Array.from({ length: turns }, (_, t) => `Turn ${t + 1}: find where ${topics[t % topics.length]} is defined and used under src/, reproduce the missing-module error, and write notes in NOTES-${t + 1}.md.`);
let taskId;
for (const [t, prompt] of prompts.entries()) {
  const cli = taskId ? ['-T', taskId, '-y', '-c', work, prompt] : ['task', '-y', '-c', work, prompt];
  // Async spawn: the fake answers from this process's event loop.
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [entry, ...cli], { cwd: work, env, stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 });
    child.stdout.on('data', (c) => process.stderr.write(c));
    child.on('close', resolve);
  });
  if (code !== 0) { console.error(`cline exited ${code} in turn ${t + 1}`); process.exit(1); }
  taskId ??= fs.readdirSync(path.join(data, 'tasks'))[0];
}
await fake.close();
fs.mkdirSync(path.join(outDir, 'tasks'), { recursive: true });
fs.cpSync(path.join(data, 'tasks', taskId), path.join(outDir, 'tasks', taskId), { recursive: true });
fs.mkdirSync(path.join(outDir, 'state'), { recursive: true });
fs.copyFileSync(path.join(data, 'state', 'taskHistory.json'), path.join(outDir, 'state', 'taskHistory.json'));
fs.copyFileSync(log, path.join(outDir, 'requests.log.jsonl'));
console.log(`task ${taskId}: ${path.join(outDir, 'tasks', taskId)} (work tree ${work})`);

