// Qwen Code: <runtime>/projects/<sanitized cwd>/chats/<id>.jsonl (runtime: $QWEN_RUNTIME_DIR, else $QWEN_HOME, else
// ~/.qwen; builds before 0.1x kept chats in <runtime>/tmp/<hash>/chats/), resumed by `qwen --resume <id>` run in the
// project's folder.
import { isRecordedCwd, isSessionId, requireSessionId, type AgentModule, type HostEnv } from '../../agents/agent';
import { detectQwen, qwenClaims } from './detect';
import { createQwenParser } from './read';
import { applyQwenRecord, qwenByModel, qwenSteadyMarkers, qwenWants } from './usage';
import { writeQwen } from './write';

/** A configured folder as Qwen resolves it: `~` is the home folder. */
const expand = (host: HostEnv, dir: string): string => (dir === '~' || dir.startsWith('~/') ? host.join(host.home, dir.slice(2)) : dir);

/** Where Qwen Code keeps its chats (Storage.getRuntimeBaseDir, without the per-run settings it may also read). */
export function qwenRuntimeDir(host: HostEnv): string {
  const dir = host.vars.QWEN_RUNTIME_DIR || host.vars.QWEN_HOME;
  return dir ? expand(host, dir) : host.join(host.home, '.qwen');
}

/** sanitizeCwd: every non-alphanumeric character becomes '-' (the path lowercased first on Windows). */
export const qwenProjectSlug = (cwd: string, platform: string): string => (platform === 'win32' ? cwd.toLowerCase() : cwd).replace(/[^a-zA-Z0-9]/g, '-');

export const qwenCode: AgentModule = {
  label: 'Qwen Code',
  shortName: 'qwen',
  icon: 'hubot',
  reading: { kind: 'lines', detect: detectQwen, createParser: createQwenParser },
  write: (original, cleaned, ctx, insert) => ({ kind: 'lines', ...writeQwen(original, cleaned, ctx, insert) }),
  sessionIds: 'uuid-v4',
  fileName: (id) => `${id}.jsonl`,
  resumeCommand: (id) => (isSessionId(id) ? `qwen --resume ${id}` : undefined),
  roots: (host) => [host.join(qwenRuntimeDir(host), 'projects'), host.join(qwenRuntimeDir(host), 'tmp')],
  storePath(host, id, cwd) {
    requireSessionId(id);
    if (cwd === undefined) throw new Error('the Qwen Code chat does not name its project folder, so its store folder is unknown');
    if (!isRecordedCwd(cwd)) throw new Error(`the transcript's working folder is not an absolute path: ${JSON.stringify(cwd.slice(0, 120))}`);
    // The slug keeps only [A-Za-z0-9-]: no recorded cwd can lead outside the projects folder.
    return host.join(qwenRuntimeDir(host), 'projects', qwenProjectSlug(cwd, host.platform), 'chats', `${id}.jsonl`);
  },
  usage: { kind: 'lines', claims: qwenClaims, wants: qwenWants, steadyMarkers: qwenSteadyMarkers, apply: applyQwenRecord, byModel: qwenByModel },
};
