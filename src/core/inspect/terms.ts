// The two words every figure is split by, defined once for every surface (inspect, compact report, webview, CLI).

/** What the agent re-sends with every request and no compaction can cut. */
export const HARNESS_DEFINITION = 'harness = system prompt + tool definitions (and the initial context an agent re-sends), re-sent every request; compaction cannot cut it';
/** What compaction acts on. */
export const HISTORY_DEFINITION = 'history = everything else (prompts, replies, tool calls and results): what compaction acts on';
/** Both, as the one line shown wherever the words appear. */
export const TERMS_LINE = `${HARNESS_DEFINITION}; ${HISTORY_DEFINITION}.`;
