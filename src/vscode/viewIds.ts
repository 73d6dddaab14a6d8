// View ids and context keys the manifest names (no vscode import: the manifest unit test reads them).
export const SESSIONS_VIEW_ID = 'contextCompactor.sessions';
/** Context key for viewsWelcome: 'scanning' before the first result, then 'empty' or 'ready'. */
export const SESSIONS_STATE_KEY = 'contextCompactor.sessions.state';
/** Context key: a filter is set on the Sessions view (shows its Clear action). */
export const SESSIONS_FILTERED_KEY = 'contextCompactor.sessions.filtered';
/** Workspace-state key of the Sessions view's sort order. */
export const SESSIONS_SORT_KEY = 'contextCompactor.sessions.sort';
