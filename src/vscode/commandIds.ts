// Every command id the extension contributes; package.json must list exactly these (checked by tests).
export const CommandIds = {
  inspectTranscript: 'contextCompactor.inspectTranscript',
  compactTranscript: 'contextCompactor.compactTranscript',
  showComposition: 'contextCompactor.showComposition',
  setApiKey: 'contextCompactor.setApiKey',
  clearApiKey: 'contextCompactor.clearApiKey',
} as const;

export type CommandId = (typeof CommandIds)[keyof typeof CommandIds];
