// The ids of the supported agents (and of their transcript formats), at the bottom of the layers: the model, usage
// and every format may name an agent without importing the registry, which sits on top and imports them all.

/** In display order (the Sessions view lists agents this way); formats/registry.ts has one module per id. */
export const AGENT_IDS = ['claude-code', 'codex', 'gemini-cli', 'opencode', 'goose', 'aider', 'copilot-chat', 'cline', 'qwen-code', 'copilot-cli', 'cursor', 'continue', 'auggie', 'droid', 'kilo', 'crush'] as const;

/** The id of a supported agent (and of its transcript format). */
export type AgentId = (typeof AGENT_IDS)[number];
