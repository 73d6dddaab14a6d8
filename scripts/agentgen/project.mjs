// What the agent-session generators share: a small git project to work in (real source files, a config to edit, a
// large log a compaction must shorten) and a way to run the agent's CLI while the loopback fake answers in-process.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A fresh scratch folder with `home/` and the project `shop/` (the given repository files, committed). */
export function makeProject(label, files, extra = {}) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `cc-gen-${label}-`)));
  const home = path.join(root, 'home');
  const proj = path.join(root, 'shop');
  for (const rel of files) {
    fs.mkdirSync(path.join(proj, path.dirname(rel)), { recursive: true });
    fs.copyFileSync(path.join(repo, rel), path.join(proj, rel));
  }
  fs.writeFileSync(path.join(proj, 'src', 'config.ts'), "export const retries = 3;\nexport const endpoint = 'http://localhost:8080/api';\n");
  fs.mkdirSync(path.join(proj, 'logs'));
  fs.writeFileSync(path.join(proj, 'logs', 'server.log'), Array.from({ length: 420 }, (_, i) =>
    `2026-11-30T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z ${i % 7 === 3 ? 'WARN' : 'INFO'} cart-service request=${1000 + i} coupon=${i % 5 === 0 ? 'SAVE10' : 'none'} total=${(i * 3.7).toFixed(2)} latency_ms=${(i * 13) % 250}`).join('\n') + '\n');
  for (const [rel, text] of Object.entries(extra)) fs.writeFileSync(path.join(proj, rel), text);
  const git = (...args) => execFileSync('git', ['-c', 'user.email=gen@example.invalid', '-c', 'user.name=gen', ...args], { cwd: proj });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
  return { root, home, proj, f: (rel) => path.join(proj, rel) };
}

/**
 * Runs the CLI in `cwd` and resolves with its stdout (rejects on a non-zero exit). Asynchronous: the fake answers
 * from this same process, so its event loop must keep running. No stdin (some CLIs read a piped stdin as the prompt).
 * `toFile`: stdout goes straight to that file (OpenCode 1.18 exits before a large export has drained into a pipe).
 */
export const cliRunner = (bin, cwd, env) => (args, toFile) => new Promise((resolve, reject) => {
  const out = toFile ? fs.openSync(toFile, 'w') : 'pipe';
  const child = spawn(bin, args, { cwd, env, stdio: ['ignore', out, 'pipe'], timeout: 180_000 });
  if (toFile) fs.closeSync(out);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.on('error', reject);
  child.on('close', (code) => (code === 0 ? resolve(toFile ? fs.readFileSync(toFile, 'utf8') : stdout) : reject(new Error(`${path.basename(bin)} ${args.join(' ')} exited ${code}: ${stderr.slice(-800)}`))));
});
