// Factory Droid's usage rows: the .settings.json sidecar keeps the session's token totals (not each request's), so the
// session's spend is one row of those totals, priced at the session's model; no sidecar, no recorded usage.
import type { Session } from '../../model/transcript';
import { modelIndex } from '../../usage/common';
import { stateFromSession } from '../../usage/rows';
import type { FileState } from '../../usage/types';
import { droidTotals, isObj, type DroidData } from './read';

export function droidUsageState(session: Session): FileState {
  const state = stateFromSession(session);
  const settings = (session.extra.droid as DroidData | undefined)?.settings ?? {};
  if (!isObj(settings.tokenUsage)) return state; // copies we wrote carry no usage; the last call's row stays
  const totals = droidTotals(settings);
  if (!totals) { state.absurdUsage++; state.rows.clear(); return state; }
  const u = totals.usage;
  state.rows = new Map();
  state.estimated = false;
  if (u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheCreationTokens === 0) return state;
  // `thinkingTokens` is not added: Anthropic's output tokens already count the thinking (the figure Droid adds up).
  state.rows.set(`droid-total:${session.id}`, ['', u.inputTokens, u.outputTokens, u.cacheCreationTokens, u.cacheReadTokens, modelIndex(state, session.models[0] ?? 'unknown'), 0, 0]);
  return state;
}
