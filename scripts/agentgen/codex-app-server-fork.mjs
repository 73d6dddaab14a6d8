// Forks a Codex thread through the real app-server (JSON-RPC over stdio) and runs one turn in the fork.
// Usage: node codex-app-server-fork.mjs CODEX_BIN THREAD_ID PROMPT (see gen-codex-forks.sh)
import { spawn } from 'node:child_process';
const [bin, threadId, prompt] = process.argv.slice(2);
const p = spawn(bin, ['app-server'], { stdio: ['pipe', 'pipe', 'inherit'] });
let id = 0; const waits = new Map(); let buf = '';
p.stdout.on('data', (d) => { buf += d; let i; while ((i = buf.indexOf('\n')) >= 0) { const line = buf.slice(0, i); buf = buf.slice(i + 1); let m; try { m = JSON.parse(line); } catch { continue; }
  if (m.id !== undefined && waits.has(m.id)) { waits.get(m.id)(m); waits.delete(m.id); }
  else if (m.method) { console.error('<-', m.method); if (m.method === 'turn/completed') { p.kill(); process.exit(0); } if (m.id !== undefined) p.stdin.write(JSON.stringify({ id: m.id, result: { decision: 'accept' } }) + '\n'); } } });
const call = (method, params) => new Promise((r) => { const n = ++id; waits.set(n, r); p.stdin.write(JSON.stringify({ id: n, method, params }) + '\n'); });
const init = await call('initialize', { clientInfo: { name: 'gen', version: '1' } }); console.error(JSON.stringify(init).slice(0, 200));
p.stdin.write(JSON.stringify({ method: 'initialized' }) + '\n');
const f = await call('thread/fork', { threadId }); console.error(JSON.stringify(f).slice(0, 300));
const tid = f.result?.thread?.id;
const t = await call('turn/start', { threadId: tid, input: [{ type: 'text', text: prompt }] }); console.error(JSON.stringify(t).slice(0, 300));
setTimeout(() => { p.kill(); process.exit(1); }, 60000);
