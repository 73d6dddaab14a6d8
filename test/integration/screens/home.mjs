// Builds the throwaway agent home of `npm run screens`: real sessions of every agent, where each agent keeps them.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Only files real agents wrote: public sessions (test/fixtures/real with its copy of the development corpus, and the
 * extra corpus $CONTEXT_COMPACTOR_CORPUS names, if any: a folder with a SOURCES.tsv of the same columns)
 * at the path their SOURCES.tsv records, and the sessions the real Gemini, Cline, OpenCode and Goose CLIs wrote
 * for the fixtures (their READMEs). Hand-made fixtures are left out. Returns the env that points the extension at
 * the copies — never the machine's own ~/.claude, ~/.codex, ~/.gemini, ~/.local/share, ~/.config.
 * `workspace`: the folder the window opens (an aider history goes there: aider keeps it in the project).
 */
export function screensHome(root, dir, workspace, { corpus: withCorpus = true } = {}) {
  const home = path.join(dir, 'agents');
  const env = {
    CLAUDE_CONFIG_DIR: path.join(home, 'claude'),
    CODEX_HOME: path.join(home, 'codex'),
    GEMINI_CLI_HOME: path.join(home, 'gemini'),
    CLINE_DATA_DIR: path.join(home, 'cline'),
    XDG_DATA_HOME: path.join(home, 'share'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_CACHE_HOME: path.join(dir, 'cache'),
    // Variables that would point OpenCode and Goose elsewhere: set here so that a machine's own do not leak in.
    OPENCODE_DATA_DIR: path.join(home, 'share', 'opencode'),
    GOOSE_PATH_ROOT: '',
  };
  const fixtures = path.join(root, 'test/fixtures');
  const corpus = process.env.CONTEXT_COMPACTOR_CORPUS;
  // `corpus: false` (the unit test): the repository's own files only, as on a stranger's clone. Nothing outside the
  // repository unless named; a file the repository holds already (same name) is copied once.
  const tables = [path.join(fixtures, 'real'), ...(withCorpus && corpus && fs.existsSync(path.join(corpus, 'SOURCES.tsv')) ? [path.resolve(corpus)] : [])];
  const copied = new Set();
  for (const table of tables) {
    for (const row of sources(table)) {
      if (copied.has(path.basename(row.local_path))) continue;
      copied.add(path.basename(row.local_path));
      const source = path.join(table, row.local_path);
      const target = storePath(row, source, env, workspace);
      if (!target) continue;
      copy(source, target);
      dateLikeRecorded(target);
    }
  }
  // Sessions the real CLIs wrote (fixture READMEs say how), in their stores' own layout.
  copy(path.join(fixtures, 'gemini-cli/session-2026-12-03T09-56-0061450c.jsonl'), path.join(env.GEMINI_CLI_HOME, '.gemini/tmp/context-compactor/chats/session-2026-12-03T09-56-0061450c.jsonl'));
  for (const run of ['cli-2.18.0-4turns', 'cli-2.18.0-truncated']) {
    fs.cpSync(path.join(fixtures, 'cline', run, 'tasks'), path.join(env.CLINE_DATA_DIR, 'tasks'), { recursive: true });
  }
  // An exported task that kept only its UI log (ui_messages.json): read from that alone (issue #26).
  copy(path.join(fixtures, 'cline/cli-2.18.0-4turns/tasks/1796291786979/ui_messages.json'), path.join(env.CLINE_DATA_DIR, 'tasks', '1796291786000', 'ui_messages.json'));
  // Cline's task index lists both runs; the two indexes are merged so that neither task loses its history item.
  const index = ['cli-2.18.0-4turns', 'cli-2.18.0-truncated'].flatMap((run) => JSON.parse(fs.readFileSync(path.join(fixtures, 'cline', run, 'state/taskHistory.json'), 'utf8')));
  write(path.join(env.CLINE_DATA_DIR, 'state/taskHistory.json'), JSON.stringify(index));
  for (const f of ['opencode-1.18.33.db', 'opencode-1.18.33.db-wal']) copy(path.join(fixtures, 'opencode', f), path.join(env.XDG_DATA_HOME, 'opencode', f.replace('-1.18.33', '')));
  for (const f of ['sessions.db', 'sessions.db-wal']) copy(path.join(fixtures, 'goose/sessions-1.37.0', f), path.join(env.XDG_DATA_HOME, 'goose/sessions', f));
  return env;
}

/** SOURCES.tsv as objects keyed by its header (local_path, path_in_repo, agent, …). */
function sources(dir) {
  const [header, ...lines] = fs.readFileSync(path.join(dir, 'SOURCES.tsv'), 'utf8').trimEnd().split('\n');
  const keys = header.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [keys[i], v])));
}

/** Where the agent keeps this file: its recorded path inside the agent's folder, or undefined when it has none. */
function storePath(row, source, env, workspace) {
  const p = row.path_in_repo;
  const after = (marker) => { const i = p.indexOf(marker); return i < 0 ? undefined : p.slice(i + marker.length); };
  switch (row.agent) {
    case 'claude-code': {
      const rest = after('projects/');
      return rest && path.join(env.CLAUDE_CONFIG_DIR, 'projects', rest);
    }
    case 'codex-cli': {
      const rest = after('sessions/') ?? after('archived_sessions/');
      return rest && path.join(env.CODEX_HOME, p.includes('archived_sessions/') ? 'archived_sessions' : 'sessions', rest);
    }
    case 'gemini-cli': {
      const rest = after('.gemini/');
      return rest && path.join(env.GEMINI_CLI_HOME, '.gemini', rest);
    }
    case 'cline': {
      // An exported task folder: its files go to tasks/<task id>/ of the CLI's data folder.
      const task = path.basename(path.dirname(p));
      return path.join(env.CLINE_DATA_DIR, 'tasks', task, path.basename(p));
    }
    case 'copilot-chat': {
      // VS Code's per-workspace chat folder; workspace.json names the folder the chat belonged to.
      const storage = path.join(env.XDG_CONFIG_HOME, 'Code/User/workspaceStorage/0c1f9a7e3b5d42e8a6f1c9d0b2e4a6c8');
      write(path.join(storage, 'workspace.json'), JSON.stringify({ folder: 'file:///home/dev/git-ai' }));
      const id = /"sessionId"\s*:\s*"([0-9a-f-]{36})"/.exec(fs.readFileSync(source, 'utf8'))?.[1] ?? path.basename(p, path.extname(p));
      return path.join(storage, 'chatSessions', `${id}${path.extname(p)}`);
    }
    case 'aider':
      // Aider keeps its history in the project: the first one goes into the workspace the window opens.
      return p === '.aider.chat.history.md' && !fs.existsSync(path.join(workspace, '.aider.chat.history.md')) ? path.join(workspace, '.aider.chat.history.md') : undefined;
    default:
      return undefined;
  }
}

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function copy(from, to) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
}

/**
 * Gives a copy the modification time of the newest timestamp it records (ISO or epoch ms), as if the agent had
 * just written it then: the view's dates and "most recent" order are the sessions' own, not the copy's.
 */
function dateLikeRecorded(file) {
  const size = fs.statSync(file).size;
  const fd = fs.openSync(file, 'r');
  const tail = Buffer.alloc(Math.min(size, 256 * 1024));
  fs.readSync(fd, tail, 0, tail.length, size - tail.length);
  fs.closeSync(fd);
  const text = tail.toString('utf8');
  const iso = [...text.matchAll(/"(?:timestamp|lastUpdated|startTime)"\s*:\s*"(\d{4}-\d\d-\d\dT[\d:.]+Z?)"/g)].map((m) => Date.parse(m[1]));
  const epoch = [...text.matchAll(/"(?:timestamp|creationDate|lastMessageDate|ts)"\s*:\s*(1[6-9]\d{11})\b/g)].map((m) => Number(m[1]));
  // Else the time its name records: rollout-2025-08-26T20-06-08-….jsonl, a Cline task folder's epoch ms.
  const named = /(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)/.exec(path.basename(file));
  const folder = /[\\/](1[6-9]\d{11})[\\/]/.exec(file);
  const fromName = named ? [Date.parse(`${named[1]}T${named[2]}:${named[3]}:${named[4]}Z`)] : folder ? [Number(folder[1])] : [];
  const recorded = [...iso, ...epoch].filter((t) => Number.isFinite(t) && t < Date.now());
  const newest = Math.max(...(recorded.length > 0 ? recorded : fromName));
  if (Number.isFinite(newest)) fs.utimesSync(file, new Date(newest), new Date(newest));
}

/** The runner's hook (VSCODE_E2E_AGENT_HOMES): the screens home in place of the usage fixtures. */
export { screensHome as agentHomes };
