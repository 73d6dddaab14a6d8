// Inspect one transcript file: read it, compose it, render it (shared by the CLI and the extension).
import { buildInspectReport, type InspectReport } from '../core/inspect/inspectReport';
import { renderInspect } from '../core/inspect/renderText';
import { readTranscriptFile } from './readTranscriptFile';

export async function inspectReport(path: string): Promise<InspectReport> {
  // The session read here only feeds the report: tool outputs are kept as far as its previews show them.
  const { session, bytes } = await readTranscriptFile(path, { previewTexts: true });
  return buildInspectReport(session, { path, bytes });
}

export async function inspectFile(path: string): Promise<{ markdown: string; json: InspectReport }> {
  const json = await inspectReport(path);
  return { markdown: renderInspect(json, true), json };
}
