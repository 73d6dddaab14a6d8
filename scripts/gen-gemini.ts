// Makes a real Gemini CLI chat: the pinned CLI (`scripts/install-npm-cli.sh gemini`) runs offline against the loopback fake
// (test/support/fakeGemini.ts), which scripts tool calls the CLI really executes over a copy of this repository's
// src/core. Usage: node --import tsx scripts/gen-gemini.ts OUTDIR [TASKS]   (writes session-*.jsonl + requests.jsonl)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startFakeGemini, type GeminiStep } from '../test/support/fakeGemini';
import { chatsDir, geminiBin, geminiHome, runGemini } from '../test/support/geminiRun';

const REPO = path.resolve(__dirname, '..');
const [outDir, tasksArg] = process.argv.slice(2);
if (!outDir) { console.error('usage: gen-gemini.ts OUTDIR [TASKS]'); process.exit(2); }
const TASKS = Number(tasksArg ?? 3);
const FOLDERS = ['cleanup', 'read', 'usage', 'compact', 'summary', 'tokens'];

/** One task: look around, read two files in parallel, grep, a failing command, write and edit a note, answer. */
function task(k: number): { prompt: string; steps: GeminiStep[] } {
  const dir = FOLDERS[k % FOLDERS.length]!;
  const files = fs.readdirSync(path.join(REPO, 'src', 'core', dir)).filter((f) => f.endsWith('.ts')).sort().slice(0, 2);
  const note = `notes/${dir}.md`;
  return {
    prompt: `Task ${k + 1}: review src/core/${dir} and write what it does to ${note}.`,
    steps: [
      { thought: `**Surveying ${dir}**\n\nI'll list the folder first to see which modules it holds.`, text: `I will look at src/core/${dir} first.`, calls: [{ name: 'list_directory', args: { dir_path: `src/core/${dir}` } }] },
      { thought: `**Reading the modules**\n\nTwo files look central; reading both at once.`, calls: files.map((f) => ({ name: 'read_file', args: { file_path: `src/core/${dir}/${f}` } })) },
      { calls: [{ name: 'grep_search', args: { pattern: 'export function', dir_path: `src/core/${dir}` } }] },
      // One large result (the price catalog, ~40 KB) early on: what compaction must shrink.
      ...(k === 0 ? [{ text: 'The prices live in a catalog; reading it whole.', calls: [{ name: 'read_file', args: { file_path: 'src/core/usage/catalog.json' } }] }] : []),
      { text: 'Checking that the type checker is available.', calls: [{ name: 'run_shell_command', args: { command: `ls src/core/${dir} | wc -l && node -e "process.exit(3)"`, description: 'Count files, then a failing check' } }] },
      { calls: [{ name: 'write_file', args: { file_path: note, content: `# ${dir}\n\n${files.map((f) => `- ${f}: reviewed`).join('\n')}\n\nStatus: draft\n` } }] },
      { calls: [{ name: 'replace', args: { file_path: note, instruction: 'Mark the note final', old_string: 'Status: draft', new_string: 'Status: final' } }] },
      { thought: '**Wrapping up**\n\nEverything is written.', text: `Done: ${note} describes ${files.join(' and ')}.` },
    ],
  };
}

async function main(): Promise<void> {
  const tasks = Array.from({ length: TASKS }, (_, k) => task(k));
  const key = 'gen-key-0001';
  const fake = await startFakeGemini(key, tasks.flatMap((t) => t.steps));
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gen-gemini-')));
  const project = path.join(root, 'project');
  fs.cpSync(path.join(REPO, 'src', 'core'), path.join(project, 'src', 'core'), { recursive: true });
  fs.mkdirSync(path.join(project, 'notes'));
  const env = geminiHome(path.join(root, 'home'), fake.url, key);
  const bin = geminiBin();
  try {
    let id: string | undefined;
    for (const t of tasks) {
      const run = await runGemini(bin, project, env, t.prompt, id ? 'latest' : undefined);
      if (run.code !== 0) throw new Error(`gemini exited ${run.code}: ${run.stderr.slice(-2000)}`);
      id = 'latest';
    }
    const chats = chatsDir(path.join(root, 'home'), project);
    fs.mkdirSync(outDir!, { recursive: true });
    for (const f of fs.readdirSync(chats)) if (f.startsWith('session-')) fs.copyFileSync(path.join(chats, f), path.join(outDir!, f));
    fs.writeFileSync(path.join(outDir!, 'requests.jsonl'), fake.requests.map((r) => JSON.stringify({ path: r.path, bytes: r.bytes, contents: (r.body as { contents?: unknown[] })?.contents?.length })).join('\n') + '\n');
    console.log(`wrote ${fs.readdirSync(outDir!).join(', ')} to ${outDir}; ${fake.requests.length} requests`);
  } finally {
    await fake.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main().catch((e: unknown) => { console.error(e instanceof Error ? e.message : String(e)); process.exit(1); });
