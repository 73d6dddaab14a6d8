// Defers loading a provider SDK until the first request, so start-up (CLI, extension) loads none of them.
import { isProviderError, ProviderError, type CountTokensInput, type ProviderId, type Summarizer, type SummaryRequest, type SummaryResult } from '../../core/summary/provider.js';

/**
 * A Summarizer whose real one (and with it the SDK, 0.4-1.3 MB of code) is built on the first call.
 * `countTokensUnsupported` must be known up front: callers read it without calling.
 */
export function lazySummarizer(id: ProviderId, load: () => Promise<Summarizer>, countTokensUnsupported?: string): Summarizer {
  let loaded: Promise<Summarizer> | undefined;
  const real = (): Promise<Summarizer> => (loaded ??= load().catch((err: unknown) => {
    loaded = undefined;
    throw isProviderError(err) ? err : new ProviderError('other', `${id}: could not load the provider (${err instanceof Error ? err.message : String(err)})`);
  }));
  return {
    id,
    ...(countTokensUnsupported ? { countTokensUnsupported } : {}),
    async summarize(req: SummaryRequest, signal: AbortSignal): Promise<SummaryResult> {
      return (await real()).summarize(req, signal);
    },
    async countTokens(input: CountTokensInput, signal: AbortSignal): Promise<number | undefined> {
      const s = await real();
      return s.countTokens ? s.countTokens(input, signal) : undefined;
    },
  };
}
