// Reads each session once for the cost question before an eval: its context and its rolling profile.
import { rollingProfile, type EstimateSession } from '../../core/eval/estimate';
import { readTranscriptFile } from '../readTranscriptFile';
import { agentCompactions } from './segments';

/** A file that cannot be read counts as nothing: its rows will fail without calling a model. */
/** `compactions` (the vendor strategy runs): also count the agent's own compactions, each a segment ours run on again. */
export async function estimateSessions(files: readonly string[], signal?: AbortSignal, compactions = true): Promise<EstimateSession[]> {
  const out: EstimateSession[] = [];
  for (const file of files) {
    if (signal?.aborted) break;
    try {
      const { session } = await readTranscriptFile(file);
      const { context, ...rolling } = rollingProfile(session);
      const n = compactions ? (await agentCompactions(file)).compactions.length : 0;
      out.push({ contextTokens: context, rolling, ...(n ? { compactions: n } : {}) });
    } catch {
      out.push({ contextTokens: 0 });
    }
  }
  return out;
}
