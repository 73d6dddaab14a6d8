// Where VS Code keeps Copilot Chat sessions: `<user data>/User/workspaceStorage/<hash>/chatSessions/<id>.json[l]`
// per workspace, `<user data>/User/globalStorage/emptyWindowChatSessions/` for windows without a folder, on Linux,
// macOS and Windows, for VS Code, Insiders, OSS builds, VSCodium and forks (same layout under their own folder).
import type { HostEnv } from '../../agents/agent';

/**
 * Product folders of the editors that run the chat (VS Code's `nameLong` / data folder names), forks included: a fork
 * whose workbench writes chatSessions files is found; one that keeps chats only in its `state.vscdb` (SQLite key
 * `interactive.sessions`, as Cursor does) has no files here and is not read.
 */
export const PRODUCTS = ['Code', 'Code - Insiders', 'Code - Exploration', 'Code - OSS', 'VSCodium', 'VSCodium - Insiders', 'Cursor', 'Windsurf'] as const;

/** Folders a session file sits in (the second holds windows without a folder, the third sessions being moved). */
export const SESSION_FOLDERS = ['chatSessions', 'emptyWindowChatSessions', 'transferredChatSessions'] as const;

/** The `User` folder of each product's user data, where it would be on this platform (existing or not). */
export function userDataFolders(host: HostEnv): string[] {
  const v = host.vars;
  const base = host.platform === 'win32' ? (v.APPDATA || host.join(host.home, 'AppData', 'Roaming'))
    : host.platform === 'darwin' ? host.join(host.home, 'Library', 'Application Support')
      : (v.XDG_CONFIG_HOME || host.join(host.home, '.config'));
  const folders = PRODUCTS.map((p) => host.join(base, p, 'User'));
  // A portable install keeps its data beside the program.
  if (v.VSCODE_PORTABLE) folders.unshift(host.join(v.VSCODE_PORTABLE, 'user-data', 'User'));
  return folders;
}

/** The roots discovery walks: every product's workspaceStorage and its empty-window sessions. */
export function copilotRoots(host: HostEnv): string[] {
  return userDataFolders(host).flatMap((u) => [host.join(u, 'workspaceStorage'), host.join(u, 'globalStorage', 'emptyWindowChatSessions')]);
}
