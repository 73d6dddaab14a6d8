// Goose's usage rows: it records the session's accumulated tokens and cost (and the last request's, its context), not
// each request's, so the session's spend is one row of those totals; the context is the last request.
import type { Session } from '../../model/transcript';
import { plausibleTokens } from '../../read/usageNumbers';
import { modelIndex } from '../../usage/common';
import { stateFromSession } from '../../usage/rows';
import type { FileState } from '../../usage/types';
import type { GooseSession } from './sources';

export function gooseUsageState(session: Session): FileState {
  const state = stateFromSession(session);
  const meta = (session.extra.goose as GooseSession | undefined)?.meta ?? {};
  const input = plausibleTokens(meta.accumulated_input_tokens);
  const output = plausibleTokens(meta.accumulated_output_tokens);
  // Sessions from before Goose kept totals (and copies we wrote, which start empty) keep the last request's row; so do
  // sessions whose totals hold an impossible figure (see plausibleTokens): those are not counted, and warned about.
  if (input === undefined || output === undefined) {
    state.absurdUsage++;
    return state;
  }
  if (input + output === 0) return state;
  // Goose's input counts cached tokens too and does not split them: priced as input.
  state.rows = new Map([[`goose-total:${session.id}`, ['', input, output, 0, 0, modelIndex(state, session.models[0] ?? 'unknown'), 0, 0]]]);
  return state;
}
