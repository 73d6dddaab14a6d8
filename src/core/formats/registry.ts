// Every supported agent, one line each: the registry the readers, writers, usage scanner, Sessions view and stores
// dispatch on. Adding an agent is its folder (src/core/formats/<id>/agent.ts implementing AgentModule) and one line.
import type { AgentModule } from '../agents/agent';
import type { FormatReader } from '../read/formatReader';
import { aider } from './aider/agent';
import { claudeCode } from './claude-code/agent';
import { codex } from './codex/agent';
import { copilotChat } from './copilot-chat/agent';
import { geminiCli } from './gemini-cli/agent';
import { goose } from './goose/agent';
import { opencode } from './opencode/agent';

const AGENTS = {
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  opencode,
  goose,
  aider,
  'copilot-chat': copilotChat,
} as const satisfies Record<string, AgentModule>;

/** The id of a supported agent (and of its transcript format). */
export type AgentId = keyof typeof AGENTS;

/** In display order (the Sessions view lists agents this way). */
export const AGENT_IDS = Object.keys(AGENTS) as AgentId[];

export const agentModule = (id: AgentId): AgentModule => AGENTS[id];

/** JSONL agents, for content detection: the first whose detector accepts the first records reads the file. */
export const FORMAT_READERS: readonly FormatReader[] = AGENT_IDS.flatMap((format) => {
  const r = AGENTS[format].reading;
  return r.kind === 'lines' ? [{ format, detect: r.detect, createParser: r.createParser }] : [];
});
