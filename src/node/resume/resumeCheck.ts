// `eval --resume-check`: the real agent CLI resumes the original and each compacted copy against a loopback model;
// the figure is the bytes of the request it sends for the copy over the bytes it sends for the original.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FormatId } from '../../core/model/transcript';
import { findAgentBin, runAgent, type ResumableAgent } from './agentRun';
import { isTurnRequest, prepareAgentHome, resumeArgs, type AgentHome } from './agentHome';
import type { LoopbackServer } from './loopback';
import { startLoopbackMessages, startLoopbackResponses } from './loopbackModels';

/** The agent CLIs the check runs, by agent; an agent without one is not checked. */
export type AgentBins = Partial<Record<ResumableAgent, string>>;

/** The CLIs found on this machine (CLAUDE_BIN / CODEX_BIN, else PATH). */
export const agentBins = (env: NodeJS.ProcessEnv): AgentBins => {
  const bins: AgentBins = {};
  for (const agent of ['claude-code', 'codex'] as const) {
    const bin = findAgentBin(agent, env);
    if (bin) bins[agent] = bin;
  }
  return bins;
};

export type ResumeOutcome = { readonly ok: true; readonly bytes: number } | { readonly ok: false; readonly why: string };

/** One transcript's check: a fresh home and loopback model, the original resumed once, each copy once. */
export class ResumeCheck {
  private originalRun?: Promise<ResumeOutcome>;

  private constructor(
    private readonly agent: ResumableAgent, private readonly bin: string, private readonly root: string,
    private readonly server: LoopbackServer, private readonly home: AgentHome,
  ) {}

  /**
   * A string (why) for a format no agent CLI resumes here, or whose CLI is not installed. `tmpDir`: where its
   * throwaway folder goes (default the system's temp folder).
   */
  static async open(file: string, format: FormatId | 'unknown', bins: AgentBins, tmpDir = os.tmpdir()): Promise<ResumeCheck | string> {
    if (format !== 'claude-code' && format !== 'codex') return `resume check: ${format} is not checked (Claude Code and Codex only)`;
    const bin = bins[format];
    if (!bin) return `resume check: no ${format === 'codex' ? 'codex' : 'claude'} CLI on this machine (PATH, ${format === 'codex' ? 'CODEX_BIN' : 'CLAUDE_BIN'})`;
    const key = `sk-loopback-${randomBytes(8).toString('hex')}`;
    // realpath'd: agents key their stores on the resolved cwd.
    const root = realpathSync(mkdtempSync(path.join(tmpDir, 'cc-resume-check-')));
    const server = format === 'codex' ? await startLoopbackResponses(key) : await startLoopbackMessages(key);
    try {
      return new ResumeCheck(format, bin, root, server, await prepareAgentHome(format, file, root, server.url, key));
    } catch (e) {
      await server.close();
      rmSync(root, { recursive: true, force: true });
      return `resume check: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  /** The folder of the stored original: a copy written here under the agent's own file name is found by its id. */
  get storeDir(): string { return path.dirname(this.home.stored); }

  /** Bytes of the turn request resuming the original sends (once per transcript). */
  original(signal: AbortSignal): Promise<ResumeOutcome> {
    return (this.originalRun ??= this.resume(this.home.sessionId, signal));
  }

  /** Resumes session ID (a copy already written into `storeDir`) and measures its turn request. */
  async resume(id: string, signal: AbortSignal): Promise<ResumeOutcome> {
    const from = this.server.requests.length;
    let run;
    try {
      run = await runAgent(this.bin, resumeArgs(this.agent, id), this.home.cwd, this.home.env, signal);
    } catch (e) {
      return { ok: false, why: `the agent CLI did not start: ${e instanceof Error ? e.message : String(e)}` };
    }
    const turn = this.server.requests.slice(from).find((r) => isTurnRequest(this.agent, r));
    if (turn) return { ok: true, bytes: turn.bytes };
    // The agent's own last words say why (a banner comes first): its last two stderr lines, else its stdout's.
    const last = (run.stderr.trim() || run.stdout.trim()).split('\n').map((l) => l.trim()).filter(Boolean).slice(-2).join(' / ');
    return { ok: false, why: `the agent sent no turn request (exit ${run.code ?? run.signal}${last ? `: ${last.slice(-240)}` : ''})` };
  }

  async close(): Promise<void> {
    await this.server.close();
    rmSync(this.root, { recursive: true, force: true });
  }
}
