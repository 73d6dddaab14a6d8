// View ids and context keys the manifest names (no vscode import: the manifest unit test reads them).
export const SESSIONS_VIEW_ID = 'contextCompactor.sessions';
/** Context key for viewsWelcome: 'scanning' before the first result, then 'empty' or 'ready'. */
export const SESSIONS_STATE_KEY = 'contextCompactor.sessions.state';
