// Where Continue keeps sessions: <CONTINUE_GLOBAL_DIR or ~/.continue>/sessions/<id>.json, beside its sessions.json
// index; recognising one by place, or elsewhere by its first bytes (history.save writes sessionId, then title).
import type { FsView, HostEnv } from '../../agents/agent';
import { isStoredJson, storedJsonUnder } from '../../read/documentSession';

export const continueDir = (host: HostEnv): string => host.vars.CONTINUE_GLOBAL_DIR || host.join(host.home, '.continue');

export const continueSessionsDir = (host: HostEnv): string => host.join(continueDir(host), 'sessions');

const HEAD = /^\uFEFF?\s*\{\s*"sessionId"\s*:\s*"[^"\\]*"\s*,\s*"title"\s*:/;
const INDEX = 'sessions.json';

/** Whether `file` is a Continue session: in ~/.continue/sessions, or anywhere with a Continue session's head. */
export const isContinueSession = (file: string, fs: FsView): boolean => fs.basename(file) !== INDEX && isStoredJson(file, fs, '.continue', HEAD);

/** The sessions under a root (the sessions folder, or the folder holding it); the index is not a session. */
export const continueSessionsUnder = (root: string, fs: FsView): string[] => storedJsonUnder(root, fs, HEAD);
