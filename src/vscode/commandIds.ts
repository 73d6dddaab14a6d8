// Every command id the extension contributes; package.json must list exactly these (checked by tests).
export const CommandIds = {
  inspectTranscript: 'contextCompactor.inspectTranscript',
  compactTranscript: 'contextCompactor.compactTranscript',
  // compact --to: the compacted session written for another agent
  continueIn: 'contextCompactor.continueIn',
  // The compaction diff's title bar: the decision on a pending compaction
  compactAccept: 'contextCompactor.compact.accept',
  compactSaveToFolder: 'contextCompactor.compact.saveToFolder',
  compactDiscard: 'contextCompactor.compact.discard',
  showComposition: 'contextCompactor.showComposition',
  countExactly: 'contextCompactor.countExactly',
  evaluateCompaction: 'contextCompactor.evaluateCompaction',
  setApiKey: 'contextCompactor.setApiKey',
  clearApiKey: 'contextCompactor.clearApiKey',
  // Sessions view
  refreshSessions: 'contextCompactor.sessions.refresh',
  addSessionRoot: 'contextCompactor.sessions.addRoot',
  revealSessionFile: 'contextCompactor.sessions.revealFile',
  copyResumeCommand: 'contextCompactor.sessions.copyResumeCommand',
  resumeInTerminal: 'contextCompactor.sessions.resumeInTerminal',
  filterSessions: 'contextCompactor.sessions.filter',
  clearSessionsFilter: 'contextCompactor.sessions.clearFilter',
  sortSessions: 'contextCompactor.sessions.sort',
  searchSessions: 'contextCompactor.sessions.search',
  // The agent's own compaction: our SessionStart hook in Claude Code's settings
  guardInstall: 'contextCompactor.hook.install',
  guardUninstall: 'contextCompactor.hook.uninstall',
} as const;

export type CommandId = (typeof CommandIds)[keyof typeof CommandIds];

