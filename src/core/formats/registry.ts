// Every supported agent, one line each: the registry the readers, writers, usage scanner, Sessions view and stores
// dispatch on. Adding an agent is its folder (src/core/formats/<id>/agent.ts implementing AgentModule) and one line.
import type { AgentModule } from '../agents/agent';
import { AGENT_IDS, type AgentId } from '../model/ids';
import type { FormatReader } from '../read/formatReader';
import { aider } from './aider/agent';
import { auggie } from './auggie/agent';
import { claudeCode } from './claude-code/agent';
import { cline } from './cline/agent';
import { codex } from './codex/agent';
import { continueCli } from './continue/agent';
import { copilotChat } from './copilot-chat/agent';
import { cursor } from './cursor/agent';
import { crush } from './crush/agent';
import { droid } from './droid/agent';
import { geminiCli } from './gemini-cli/agent';
import { goose } from './goose/agent';
import { kilo } from './kilo/agent';
import { opencode } from './opencode/agent';
import { qwenCode } from './qwen-code/agent';
import { copilotCli } from './copilot-cli/agent';

const AGENTS: Readonly<Record<AgentId, AgentModule>> = {
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  opencode,
  goose,
  aider,
  'copilot-chat': copilotChat,
  cline,
  'qwen-code': qwenCode,
  'copilot-cli': copilotCli,
  cursor,
  continue: continueCli,
  auggie,
  droid,
  kilo,
  crush,
};

// The ids live in model/ids.ts (the bottom layer); re-exported here for the composition points that take both.
export { AGENT_IDS, type AgentId };

export const agentModule = (id: AgentId): AgentModule => AGENTS[id];

/** JSONL agents, for content detection: the first whose detector accepts the first records reads the file. */
export const FORMAT_READERS: readonly FormatReader[] = AGENT_IDS.flatMap((format) => {
  const r = AGENTS[format].reading;
  return r.kind === 'lines' ? [{ format, detect: r.detect, createParser: r.createParser, unreadField: r.unreadField }] : [];
});
