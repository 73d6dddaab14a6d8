// Restricted Mode (untrusted workspace): inspect and preview only — no file written, no provider called.
import { CommandIds, type CommandId } from './commandIds.js';

/**
 * What a command may do in Restricted Mode. 'always': reads only, or user-level state the user sets explicitly
 * (API keys in SecretStorage, user settings), never something a workspace can trigger by its content;
 * 'preview': runs, but writes nothing and calls no provider; 'trusted': not at all.
 */
export type RestrictedMode = 'always' | 'preview' | 'trusted';

export const RESTRICTED: Readonly<Record<CommandId, RestrictedMode>> = {
  [CommandIds.inspectTranscript]: 'always',
  [CommandIds.showComposition]: 'always',
  [CommandIds.compactTranscript]: 'preview',
  // The same flow, written for another agent: the preview only, until the window is trusted.
  [CommandIds.continueIn]: 'preview',
  // Only a trusted window has a pending compaction to decide on (Restricted Mode shows the diff, decides nothing).
  [CommandIds.compactAccept]: 'trusted',
  [CommandIds.compactSaveToFolder]: 'trusted',
  [CommandIds.compactDiscard]: 'always',
  [CommandIds.countExactly]: 'trusted',
  // Rules only when untrusted; its report goes to the extension's own storage, never the workspace.
  [CommandIds.evaluateCompaction]: 'preview',
  [CommandIds.setApiKey]: 'always',
  [CommandIds.clearApiKey]: 'always',
  [CommandIds.refreshSessions]: 'always',
  [CommandIds.addSessionRoot]: 'always',
  [CommandIds.revealSessionFile]: 'always',
  [CommandIds.copyResumeCommand]: 'always',
  // Starts the agent in a terminal: a workspace's transcript must not get to run anything before it is trusted.
  [CommandIds.resumeInTerminal]: 'trusted',
  [CommandIds.filterSessions]: 'always',
  [CommandIds.clearSessionsFilter]: 'always',
  [CommandIds.sortSessions]: 'always',
  // Reads sessions and shows matches; untrusted it neither reads nor writes the search index (the usage cache's rule).
  [CommandIds.searchSessions]: 'always',
  // Writes a command Claude Code will run into its settings: not before the window is trusted. Removing ours only
  // takes away what runs, and touches nothing a workspace supplies.
  [CommandIds.guardInstall]: 'trusted',
  [CommandIds.guardUninstall]: 'always',
};

/** The trust state and a way to tell the user; the composition root wires vscode.workspace.isTrusted. */
export interface TrustGate {
  readonly trusted: () => boolean;
  readonly warn: (message: string) => void;
}

export const restrictedMessage = (what: string): string =>
  `Context Compactor: ${what} needs a trusted workspace. In Restricted Mode transcripts are inspected and previewed only: nothing is written and no provider is called.`;

/** Whether the command may run in full now; if not, the user is told why (once per call). */
export function mayRunFully(gate: TrustGate, command: CommandId, what: string): boolean {
  if (RESTRICTED[command] === 'always' || gate.trusted()) return true;
  gate.warn(restrictedMessage(what));
  return false;
}

/** Whether the command may run at all ('preview' commands run, reduced). */
export function mayRun(gate: TrustGate, command: CommandId, what: string): boolean {
  if (RESTRICTED[command] !== 'trusted' || gate.trusted()) return true;
  gate.warn(restrictedMessage(what));
  return false;
}
