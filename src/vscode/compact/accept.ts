// Accept: write the compacted session where its agent finds it (or a folder the user names), then say where and what next.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { HANDOFF_NOTE } from '../../core/compact/report';
import { tabName } from '../../core/text/tabName';
import { agentModule } from '../../core/formats/registry';
import { storePath } from '../../node/agentStores';
import { reportOf, writeCompaction, type PreparedCompaction } from '../../node/compactFile';
import type { Logger } from '../log.js';
import { showInfo } from '../notify.js';
import type { PreviewDocuments } from '../previewDocuments';
import { openResumeTerminal, resumeFolder, terminalShell } from '../resumeTerminal.js';
import { restrictedMessage, type TrustGate } from '../trust.js';
import { renderAcceptedReport, type CompactOutcome } from './outcome.js';

export interface AcceptContext {
  readonly p: PreparedCompaction;
  readonly source: vscode.Uri;
  readonly title: string;
  /** One line on the summary step (summaryStatus). */
  readonly status: string;
  readonly log: Logger;
  readonly previews: PreviewDocuments;
  readonly trust: TrustGate;
  /** The extension's own storage (handoffs/ under it). */
  readonly storage: vscode.Uri;
  /** Open the report once written: the user decided on the diff (a caller that passed its decision gets the outcome). */
  readonly showReport: boolean;
}

async function askFolder(): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({ title: 'Save the compacted session to a folder', canSelectFiles: false, canSelectFolders: true, canSelectMany: false, openLabel: 'Save here' });
  return picked?.[0]?.fsPath;
}

/** Writes and reports; undefined when the user cancelled the folder dialog. Throws on a write failure. */
export async function accept(c: AcceptContext, toFolder: boolean, folder: string | undefined): Promise<CompactOutcome | undefined> {
  const { p } = c;
  // The caller asked already (mayRunFully); a second look costs nothing and keeps every write behind the gate.
  if (!c.trust.trusted()) throw new Error(restrictedMessage('Writing the compacted transcript'));
  // The agent it is written for: the session's own, or the one it continues in (Continue in…).
  const target = p.outcome.target.to;
  const agent = agentModule(target).label;
  const cwd = resumeFolder(p.original.cwd);
  // With no folder to resume in (the recorded one gone, no workspace open) the copy is stored under the recorded one,
  // and the report checks that same place.
  const storeCwd = cwd ?? p.original.cwd;
  let output: string;
  let place = '';
  if (toFolder) {
    const dir = folder ?? (await askFolder());
    if (dir === undefined) return undefined;
    output = path.join(dir, path.basename(p.defaultOut));
  } else if (p.outcome.written.kind === 'handoff') {
    // Pasted, never loaded: the extension's own folder (opened in an editor), not the user's repository.
    output = path.join(c.storage.fsPath, 'handoffs', path.basename(p.defaultOut));
    place = `a ${HANDOFF_NOTE}`;
  } else {
    // Where the agent's resume looks: Claude Code and Gemini CLI by the folder it runs in (`cwd`), so the same
    // folder the terminal opens in.
    output = storePath(target, p.outcome.sessionId, storeCwd, p.ctx.now(), process.env, target === p.original.format ? c.source.fsPath : undefined);
    place = `in ${agent}'s own sessions, where its resume command finds it`;
  }
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Context Compactor: writing the compacted session' }, async () => {
    await writeCompaction(p, output, { createDir: true });
  });
  // reportOf gives a command only where the agent finds the copy (under the folder it was stored for).
  const report = reportOf(p, output, { cwd: storeCwd, shell: terminalShell() });
  if (toFolder) place = report.resumeCommand ? `in ${agent}'s own sessions` : `a folder you chose (${agent} does not look there)`;
  // Named by the session's title (the preview's tab), under the new id's folder (one document per compaction).
  const reportUri = c.previews.put(`${p.outcome.sessionId}/${reportName(c.title)}`, renderAcceptedReport(report, { place, agent, cwd, status: c.status }, c.title));
  c.log.info(`compacted ${c.source.fsPath} -> ${output} (${place})${report.resumeCommand ? `; resume: ${report.resumeCommand} in ${cwd ?? 'any folder'}` : ''}`);
  if (c.showReport) await vscode.commands.executeCommand('markdown.showPreview', reportUri).then(undefined, (err: unknown) => c.log.warn(`report preview: ${String(err)}`));
  void notifyWritten(c, report, output, cwd, reportUri);
  return { report, written: true, decision: toFolder ? 'save-to-folder' : 'accept', output, storeCopy: toFolder ? undefined : output, cwd };
}

async function notifyWritten(c: AcceptContext, report: CompactOutcome['report'], output: string, cwd: string | undefined, reportUri: vscode.Uri): Promise<void> {
  const folder = path.dirname(output);
  if (report.handoff) {
    await vscode.window.showTextDocument(vscode.Uri.file(output), { preview: false });
    const choice = await showInfo(`Context Compactor: wrote the handoff ${path.basename(output)} to ${folder} — ${HANDOFF_NOTE}.`, 'Copy handoff', 'Open report');
    if (choice === 'Copy handoff' && c.p.outcome.written.kind === 'handoff') await vscode.env.clipboard.writeText(c.p.outcome.written.markdown);
    if (choice === 'Open report') await vscode.commands.executeCommand('markdown.showPreview', reportUri);
    return;
  }
  const resume = report.resumeCommand;
  const actions = resume ? (['Resume in terminal', 'Copy resume command', 'Open report'] as const) : (['Open report', 'Reveal file'] as const);
  const tail = resume ? ` Resume: ${resume}` : ' No resume command: the agent does not look in that folder.';
  const choice = await showInfo(`Context Compactor: compacted session written to ${folder}.${tail}`, ...actions);
  if (choice === 'Resume in terminal') openResumeTerminal({ command: resume, cwd, name: `Resume ${c.title}` });
  if (choice === 'Copy resume command') await vscode.env.clipboard.writeText(resume);
  if (choice === 'Open report') await vscode.commands.executeCommand('markdown.showPreview', reportUri);
  if (choice === 'Reveal file') await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(output));
}

/** The report's file name, which its preview tab shows. */
export const reportName = (title: string): string => `Compaction report — ${tabName(title)}.md`;
