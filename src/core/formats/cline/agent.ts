// Cline, Roo Code and Kilo Code: a task is a folder <storage>/tasks/<id>/ (API history, UI log, metadata) under the
// extension's VS Code globalStorage (or a fork's, or the Cline CLI's ~/.cline/data); written as a new task folder.
import type { AgentModule } from '../../agents/agent';
import { clineDataDir, taskRoots } from './paths';
import { parseTask } from './read';
import { selectTask, tasksUnder } from './select';
import { writeTask } from './write';

/** Cline names tasks by their creation time in ms (the CLI resumes those); Roo and Kilo by UUID. */
const CLINE_TASK_ID = /^\d{10,16}$/;

export const cline: AgentModule = {
  label: 'Cline / Roo Code / Kilo Code',
  shortName: 'cline',
  icon: 'hubot',
  reading: {
    kind: 'document',
    folders: true,
    select: selectTask,
    sessionsUnder: tasksUnder,
    parse: parseTask,
  },
  write: writeTask,
  sessionIds: 'epoch-ms',
  fileName: (id) => id,
  // The Cline CLI resumes tasks of its own folder; a task written into VS Code's storage opens from Cline's History.
  resumeCommand: (id) => (CLINE_TASK_ID.test(id) ? `cline --taskId ${id}` : undefined),
  roots: taskRoots,
  storePath(host, id) {
    if (!CLINE_TASK_ID.test(id)) throw new Error(`not a task id: ${JSON.stringify(id.slice(0, 80))}`);
    // The Cline CLI's folder is the one store a command resumes from; VS Code's is per editor and extension.
    return host.join(clineDataDir(host), 'tasks', id);
  },
  usage: { kind: 'from-session' },
};
