// What OpenAI-compatible servers cannot do, known without loading the openai SDK (see lazySummarizer.ts).
export const COMPATIBLE_COUNT_UNSUPPORTED = 'not supported by this server: OpenAI-compatible servers have no token-count endpoint';
