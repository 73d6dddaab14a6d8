// `npm run demo`: inspect and compact the shipped real Claude Code and Codex samples with the built CLI (copies go to
// demo-output/, where no agent looks: the reports say so instead of printing a resume command).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const out = 'demo-output';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const codex = path.join('test/fixtures/codex', readdirSync('test/fixtures/codex').find((f) => f.startsWith('rollout-')));
const cli = (...args) => {
  console.log(`\n$ context-compactor ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
cli('inspect', 'test/fixtures/claude-code/sample.jsonl');
cli('compact', 'test/fixtures/claude-code/sample.jsonl', '--out', `${out}/claude-code-compacted.jsonl`);
cli('compact', codex, '--out', `${out}/codex-compacted.jsonl`);
cli('inspect', `${out}/claude-code-compacted.jsonl`);
console.log(`\nCompacted transcripts are in ${out}/ (originals untouched). The agents do not look there, so the reports
above give no resume command and say where each agent looks; for a session of your own, \`compact FILE --into-store\`
writes the copy where its agent resumes from and prints the command. Run the CLI from this clone as
\`node dist/cli.js …\`. With a provider configured, add e.g.
  --provider anthropic --model claude-sonnet-4-5   (key from ANTHROPIC_API_KEY)
for the one summary call.`);
