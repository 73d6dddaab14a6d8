// Kilo CLI (npm @kilocode/cli, 7.x): a fork of OpenCode with OpenCode's store under its own name — $XDG_DATA_HOME/kilo
// (~/.local/share/kilo): kilo.db (SQLite, OpenCode's session/message/part tables) or the storage/ JSON tree; a compacted
// copy is export JSON for `kilo import`, then `kilo --session <id>`. Read and written by the OpenCode module's code.
import { KILO, opencodeFamily } from '../opencode/agent';

export const kilo = opencodeFamily(KILO);
