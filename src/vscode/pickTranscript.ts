// Resolves which session a command acts on: its Uri argument, a Sessions item, the active .jsonl editor, or a quick
// pick of the known sessions by title (with "Browse…" for a file anywhere).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { pickOrder, sessionPickText } from '../node/sessions/pickItems';
import { sessionFileOf, type SessionNode } from '../node/sessions/treeModel';

function isJsonlFile(uri: vscode.Uri | undefined): uri is vscode.Uri {
  return uri !== undefined && uri.scheme === 'file' && uri.path.toLowerCase().endsWith('.jsonl');
}

/**
 * The known sessions (the Sessions view's scan), set by the composition root; `scan`: scan first if nothing has
 * been scanned yet (for the quick pick), else what is known now (for a title). Unset: the file dialog only.
 */
let knownSessions: ((scan: boolean) => Promise<SessionNode[]>) | undefined;

export function setSessionSource(source: ((scan: boolean) => Promise<SessionNode[]>) | undefined): void {
  knownSessions = source;
}

/** What each agent keeps a session in: JSONL logs, JSON documents, SQLite stores, Markdown histories. */
const TRANSCRIPT_EXTENSIONS = ['jsonl', 'json', 'db', 'md'];

async function browse(title: string): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectMany: false,
    openLabel: 'Open transcript',
    filters: { 'Agent transcripts': TRANSCRIPT_EXTENSIONS, 'All files': ['*'] },
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  });
  return picked?.[0];
}

type Item = vscode.QuickPickItem & { readonly node?: SessionNode; readonly browse?: true };

/** The quick pick of known sessions: "compact soon" first, then newest; undefined when dismissed. */
async function pickKnown(title: string, sessions: readonly SessionNode[]): Promise<{ uri: vscode.Uri; title: string } | undefined> {
  const items: Item[] = pickOrder(sessions).map((node) => ({ node, ...sessionPickText(node), iconPath: new vscode.ThemeIcon(node.icon.id, node.icon.color ? new vscode.ThemeColor(node.icon.color) : undefined) }));
  const browseItem: Item = { label: '$(folder-opened) Browse…', description: 'a transcript file anywhere (.jsonl, .json, .db, .md)', alwaysShow: true, browse: true };
  const picked = await vscode.window.showQuickPick<Item>([...items, { label: 'Files', kind: vscode.QuickPickItemKind.Separator }, browseItem], {
    title, placeHolder: 'Pick a session by title, agent or project — or Browse… for a file', matchOnDescription: true, matchOnDetail: true,
  });
  if (!picked) return undefined;
  if (picked.node) return { uri: vscode.Uri.file(picked.node.file), title: picked.node.title };
  const uri = await browse(title);
  return uri ? { uri, title: titleOfFile(uri.fsPath, sessions) } : undefined;
}

/** A known session's title for a file, else the file's name. */
function titleOfFile(file: string, sessions: readonly SessionNode[]): string {
  return sessions.find((s) => s.file === file)?.title ?? path.basename(file);
}

/**
 * `arg` is what editor/title and explorer menus pass (the resource Uri), what the Sessions view passes (its item) or
 * what a hover link passes (`{kind: 'session', file}`). Without one, the active .jsonl editor, else a quick pick.
 */
export async function pickSession(arg: unknown, title: string): Promise<{ uri: vscode.Uri; title: string } | undefined> {
  const sessions = (scan: boolean): Promise<SessionNode[]> => (knownSessions ? knownSessions(scan).catch(() => []) : Promise.resolve([]));
  const file = sessionFileOf(arg);
  const given = arg instanceof vscode.Uri ? arg : file !== undefined ? vscode.Uri.file(file) : undefined;
  const active = vscode.window.activeTextEditor?.document.uri;
  const direct = given ?? (isJsonlFile(active) ? active : undefined);
  // The title comes from the view's own scan, never from the argument (any caller can pass any object).
  if (direct) return { uri: direct, title: titleOfFile(direct.fsPath, await sessions(false)) };
  const known = await sessions(true);
  if (known.length === 0) {
    const uri = await browse(title);
    return uri ? { uri, title: path.basename(uri.fsPath) } : undefined;
  }
  return pickKnown(title, known);
}

/** The transcript only, for callers that need no title. */
export async function pickTranscript(arg: unknown, title: string): Promise<vscode.Uri | undefined> {
  return (await pickSession(arg, title))?.uri;
}
