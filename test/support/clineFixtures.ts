// Paths of the Cline task folders: written by the real Cline CLI, a public VS Code task, a hand-made Roo task.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURES } from './fixtures';

/** The one task folder of a fixture that holds a Cline data folder (tasks/<id>/, state/taskHistory.json). */
export const taskOf = (name: string): string => {
  const tasks = path.join(FIXTURES, 'cline', name, 'tasks');
  return path.join(tasks, fs.readdirSync(tasks)[0]!);
};
export const CLINE_4TURNS = taskOf('cli-2.18.0-4turns');
export const CLINE_TRUNCATED = taskOf('cli-2.18.0-truncated');
export const ROO_CONDENSED = taskOf('handmade-roo-condensed');
export const CLINE_REAL = path.join(FIXTURES, 'real', 'cline', 'online-card-3.51.0-vscode');
