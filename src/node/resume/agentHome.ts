// A fresh, offline home for an agent CLI: the transcript copied where the agent looks, its API pointed at a loopback.
import { createReadStream, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { requireSessionId } from '../../core/agents/agent';
import { codexHome, storePath } from '../agentStores';
import { agentEnv, RESUME_PROMPT, type ResumableAgent } from './agentRun';
import type { RecordedRequest } from './loopback';

export interface AgentHome {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** The copy of the transcript in the agent's store. */
  readonly stored: string;
  readonly sessionId: string;
}

/** The first record of a JSONL file that `pick` accepts (read line by line, stopping there). */
async function firstRecord<T>(file: string, pick: (r: Record<string, unknown>) => T | undefined): Promise<T | undefined> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      let r: unknown;
      try { r = JSON.parse(line); } catch { continue; }
      const hit = r && typeof r === 'object' ? pick(r as Record<string, unknown>) : undefined;
      if (hit !== undefined) return hit;
    }
  } finally {
    lines.close();
  }
  return undefined;
}

interface CodexMeta { readonly id: string; readonly timestamp: string; readonly model_provider?: string }

/** Puts FILE where its agent looks, in a home under ROOT whose model API is `apiUrl` (with `apiKey`). */
export async function prepareAgentHome(agent: ResumableAgent, file: string, root: string, apiUrl: string, apiKey: string): Promise<AgentHome> {
  const cwd = path.join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  if (agent === 'claude-code') {
    const env = agentEnv(path.join(root, 'home'), { ANTHROPIC_BASE_URL: apiUrl, ANTHROPIC_API_KEY: apiKey, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' });
    const sessionId = await firstRecord(file, (r) => (typeof r.sessionId === 'string' ? r.sessionId : undefined));
    if (!sessionId) throw new Error('no session id in the transcript');
    // Any cwd works: Claude Code finds sessions under the slug of the cwd it runs in.
    const stored = storePath('claude-code', sessionId, cwd, new Date(), env);
    mkdirSync(path.dirname(stored), { recursive: true });
    copyFileSync(file, stored);
    return { env, cwd, stored, sessionId };
  }
  const env = agentEnv(path.join(root, 'home'), { CODEX_HOME: path.join(root, 'codex'), OPENAI_API_KEY: apiKey, LOOPBACK_API_KEY: apiKey, OPENAI_BASE_URL: `${apiUrl}/v1` });
  const meta = await firstRecord(file, (r): CodexMeta | undefined => {
    // Rollouts start with a session_meta line; the oldest ones with the bare meta object.
    const m = (r.type === 'session_meta' ? r.payload : r) as Partial<CodexMeta> | undefined;
    return m && typeof m.id === 'string' && typeof m.timestamp === 'string' ? (m as CodexMeta) : undefined;
  });
  const [, y, mo, d, rest] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})/.exec(meta?.timestamp ?? '') ?? [];
  if (!meta || !rest) throw new Error('no session_meta with an id and a start time in the rollout');
  // The id names the stored file and is an argument of `codex resume`: a hostile one ("x/../../f", "--flag") must not.
  requireSessionId(meta.id);
  // A session resumes only with the provider it was made with: the built-in "openai" one or a custom id, both
  // pointed at the loopback.
  const provider = /^[A-Za-z0-9_-]+$/.test(meta.model_provider ?? '') ? meta.model_provider! : 'openai';
  mkdirSync(codexHome(env), { recursive: true });
  writeFileSync(path.join(codexHome(env), 'config.toml'), [
    'model = "gpt-5.5"', `openai_base_url = "${apiUrl}/v1"`, 'forced_login_method = "api"', `model_provider = "${provider}"`,
    ...(provider === 'openai' ? [] : [`[model_providers.${provider}]`, `name = "${provider}"`, `base_url = "${apiUrl}/v1"`, 'wire_api = "responses"', 'env_key = "LOOPBACK_API_KEY"']), '',
  ].join('\n'));
  // Codex files sessions under sessions/YYYY/MM/DD/ by their start date, and finds one by the id in its name.
  const stored = path.join(codexHome(env), 'sessions', y!, mo!, d!, `rollout-${y}-${mo}-${d}T${rest.replace(/:/g, '-')}-${meta.id}.jsonl`);
  mkdirSync(path.dirname(stored), { recursive: true });
  copyFileSync(file, stored);
  return { env, cwd, stored, sessionId: meta.id };
}

/** The CLI arguments that resume session ID non-interactively with the resume prompt. */
export const resumeArgs = (agent: ResumableAgent, id: string): string[] =>
  agent === 'claude-code' ? ['-p', '--resume', id, '--', RESUME_PROMPT] : ['exec', '--skip-git-repo-check', 'resume', id, '--', RESUME_PROMPT];

/** Every string anywhere inside a parsed JSON value: text search without JSON escaping in the way. */
export function allStrings(v: unknown, into: string[] = []): string[] {
  if (typeof v === 'string') into.push(v);
  else if (Array.isArray(v)) for (const x of v) allStrings(x, into);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) allStrings(x, into);
  return into;
}

export const mentions = (body: unknown, needle: string): boolean => allStrings(body).some((s) => s.includes(needle));

/** The request that carries the resumed turn (tools and the resume prompt), not a title or other side request. */
export function isTurnRequest(agent: ResumableAgent, r: RecordedRequest): boolean {
  const b = r.body as { tools?: unknown[]; messages?: unknown[]; input?: { type?: string; role?: string }[] } | undefined;
  if ((b?.tools?.length ?? 0) === 0) return false;
  if (agent === 'claude-code') return r.path === '/v1/messages' && (b?.messages ?? []).some((m) => mentions(m, RESUME_PROMPT));
  return r.path === '/v1/responses' && (b?.input ?? []).some((i) => i.type === 'message' && i.role === 'user' && mentions(i, RESUME_PROMPT));
}
