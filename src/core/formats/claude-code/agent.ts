// Claude Code: ~/.claude/projects/<slug>/<uuid>.jsonl (or $CLAUDE_CONFIG_DIR), resumed by `claude --resume <id>`.
import { isRecordedCwd, isSessionId, requireSessionId, type AgentModule, type HostEnv } from '../../agents/agent';
import { detectClaudeCode } from './detect';
import { createClaudeCodeParser } from './read';
import { applyClaudeRecord, claudeByModel, claudeClaims, claudeSteadyMarkers, claudeWants } from './usage';
import { writeClaudeCode } from './write';
import { claudeFromConversation } from './fromConversation';

/** Claude Code's project folder name: every non-alphanumeric character becomes '-'. */
export const claudeProjectSlug = (cwd: string): string => cwd.normalize('NFC').replace(/[^A-Za-z0-9]/g, '-').slice(0, 200);

/** Config folders, as Claude Code and ccusage resolve them: CLAUDE_CONFIG_DIR (a comma list) replaces the defaults. */
export function claudeDirs(host: HostEnv): string[] {
  const configured = host.vars.CLAUDE_CONFIG_DIR?.split(',').map((d) => d.trim()).filter(Boolean);
  if (configured?.length) return configured;
  return [host.join(host.vars.XDG_CONFIG_HOME || host.join(host.home, '.config'), 'claude'), host.join(host.home, '.claude')];
}

/** The folder new sessions go to: the first configured one, else ~/.claude. */
export function claudeHome(host: HostEnv): string {
  return host.vars.CLAUDE_CONFIG_DIR?.split(',')[0]?.trim() || host.join(host.home, '.claude');
}

export const claudeCode: AgentModule = {
  label: 'Claude Code',
  shortName: 'claude',
  icon: 'sparkle',
  // Every tool output is on its line twice: `toolUseResult` (the tool's own data) is never read (read.ts envelopeOf).
  reading: { kind: 'lines', detect: detectClaudeCode, createParser: createClaudeCodeParser, unreadField: { name: 'toolUseResult' } },
  write: (original, cleaned, ctx, insert) => ({ kind: 'lines', ...writeClaudeCode(original, cleaned, ctx, insert) }),
  fromConversation: (conversation, ctx) => ({ kind: 'lines', ...claudeFromConversation(conversation, ctx) }),
  sessionIds: 'uuid-v4',
  fileName: (id) => `${id}.jsonl`,
  resumeCommand: (id) => (isSessionId(id) ? `claude --resume ${id}` : undefined),
  // Like ccusage, a CLAUDE_CONFIG_DIR entry may also name the projects/ folder itself.
  roots: (host) => claudeDirs(host).map((d) => (host.basename(d) === 'projects' ? d : host.join(d, 'projects'))),
  storePath(host, id, cwd) {
    requireSessionId(id);
    if (cwd !== undefined && !isRecordedCwd(cwd)) throw new Error(`the transcript's working folder is not an absolute path: ${JSON.stringify(cwd.slice(0, 120))}`);
    // The slug keeps only [A-Za-z0-9-]: no recorded cwd can lead outside the projects folder.
    return host.join(claudeHome(host), 'projects', claudeProjectSlug(cwd ?? host.home), `${id}.jsonl`);
  },
  usage: { kind: 'lines', claims: claudeClaims, wants: claudeWants, steadyMarkers: claudeSteadyMarkers, apply: applyClaudeRecord, byModel: claudeByModel },
};
