// The agents whose sessions can be read, named from the registry for the "not a transcript" error.
import { AGENT_IDS, agentModule } from '../formats/registry';

/** "Claude Code, Codex, … and Aider": every registered agent, in registry order. */
export function supportedAgents(): string {
  const labels = AGENT_IDS.map((id) => agentModule(id).label);
  return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}` : labels.join('');
}

/** The one-line error for a file no agent's reader recognises. */
export const notRecognised = (): string => `not a recognised transcript: expected a session of ${supportedAgents()}`;
