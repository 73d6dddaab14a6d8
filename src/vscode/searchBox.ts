// "Search sessions…": a live quick pick over every session of every agent (the Sessions view's title and the palette);
// the search runs on a worker thread, a cold index says how far it is, a picked match opens the panel at its message.
import * as vscode from 'vscode';
import { makeQuery } from '../core/search/match';
import { parseTypedQuery } from '../core/search/queryText';
import { startSearch, type SearchJob } from '../node/search/searchJob';
import { AGENT_NAMES, resultLine, searchPicks, type SearchPick } from '../node/search/searchPicks';
import type { MessageTarget } from '../protocol/messages';
import type { CompositionPanels } from './compositionPanel';
import { CommandIds } from './commandIds.js';
import { describeError, type Logger } from './log.js';
import { resolveRoots } from './sessionsRoots.js';
import type { Settings } from './settingKeys.js';

const TITLE = 'Search sessions';
const PLACEHOLDER = 'Words to find in every session — filters: agent:codex  project:api  since:7d (or 2026-12-01)';
/** Quiet time after a keystroke before searching: one search per pause, not per letter. */
const DEBOUNCE_MS = 250;
/** Matches fetched per session (the count stays complete); the rows group them by block, five blocks at most. */
const PER_SESSION = 20;

/** A row of the box: a match (`pick`) or a line saying why there is none. */
export type SearchItem = vscode.QuickPickItem & { readonly pick?: SearchPick };
type Item = SearchItem;

export interface SearchDeps {
  readonly settings: () => Settings;
  readonly panels: CompositionPanels;
  readonly log: Logger;
  /** Restricted Mode: the index is neither read nor written (a cold search each time), as the usage cache. */
  readonly trusted: () => boolean;
  readonly env?: NodeJS.ProcessEnv;
}

/** What a pick opened; the command resolves to it (undefined when the box was closed). */
export interface Opened { readonly file: string; readonly target: MessageTarget }

/** The search box: one at a time; `current` is the open quick pick (the integration tests pick through it). */
export class SearchBox implements vscode.Disposable {
  current: vscode.QuickPick<Item> | undefined;
  /** The last search's line (its counts, or why it was refused), for the tests and the title. */
  lastStatus = '';
  /** How the last finished search ran: on the worker thread or this one, sessions read and reused. */
  lastRun: { readonly threaded: boolean; readonly indexed: number; readonly reused: number } | undefined;

  constructor(private readonly deps: SearchDeps) {}

  open(initial?: string): Promise<Opened | undefined> {
    this.current?.dispose();
    const qp = vscode.window.createQuickPick<Item>();
    this.current = qp;
    qp.title = TITLE;
    qp.placeholder = PLACEHOLDER;
    // The typed text is a query with prefixes, not a filter of the rows: every row found is shown.
    qp.matchOnDescription = false;
    qp.matchOnDetail = false;
    let regex = false;
    // One icon whatever the mode (a button has no pressed state): the tooltip and the title say which mode is on.
    const regexButton = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon('regex'), tooltip: regex ? 'Regular expression: on (click for plain text)' : 'Use a regular expression' });
    qp.buttons = [regexButton()];
    let job: SearchJob | undefined;
    let timer: NodeJS.Timeout | undefined;
    let generation = 0;
    const show = (items: Item[], title = TITLE): void => {
      qp.items = items.map((i) => ({ ...i, alwaysShow: true }));
      qp.title = regex ? title.replace(TITLE, `${TITLE} (regular expression)`) : title;
    };
    const note = (label: string, detail?: string): Item => ({ label, ...(detail ? { detail } : {}) });

    const run = async (): Promise<void> => {
      job?.cancel();
      job = undefined;
      const mine = ++generation;
      const typed = parseTypedQuery(qp.value, AGENT_NAMES, Date.now());
      if (typed.problems.length > 0) return show(typed.problems.map((p) => note(`$(warning) ${p}`)));
      if (typed.text === '') return show([], TITLE);
      const query = makeQuery(typed.text, regex);
      if (typeof query === 'string') { this.lastStatus = query; return show([note(`$(warning) ${query}`)]); }
      qp.busy = true;
      const settings = this.deps.settings();
      const env = this.deps.env ?? process.env;
      try {
        const roots = await resolveRoots(settings.sessionRoots, env);
        if (mine !== generation) return;
        const started = Date.now();
        const current = startSearch({
          env: { ...env }, text: typed.text, regex, agent: typed.agent, project: typed.project, since: typed.since,
          extraDirs: roots.extraDirs, useCache: this.deps.trusted(), limit: PER_SESSION,
        }, (done, total, indexed) => {
          // A cold index says how far it is; a warm search has nothing to read and says nothing.
          if (mine === generation) show([note(`$(sync~spin) Indexing sessions: ${done} of ${total} checked, ${indexed} read`, 'The first search reads every session once; later searches read only what changed.')], `${TITLE} — indexing ${done}/${total}`);
        });
        job = current;
        const result = await current.result;
        if (mine !== generation) return;
        for (const w of result.warnings) this.deps.log.warn(w);
        this.lastStatus = resultLine(result);
        this.lastRun = { threaded: current.threaded(), indexed: result.stats.indexed, reused: result.stats.reused };
        this.deps.log.info(`search ${JSON.stringify(typed.text)}${regex ? ' (regex)' : ''}: ${this.lastStatus}; ${result.stats.indexed} indexed, ${result.stats.reused} reused, ${current.threaded() ? 'worker thread' : 'host thread'}, ${Date.now() - started} ms`);
        const picks = searchPicks(result, Date.now());
        show(picks.length > 0
          ? picks.map((pick) => ({ label: pick.label, description: pick.description, detail: pick.detail, pick }))
          : [note(`No matches in ${result.stats.sessions} sessions`, typed.agent || typed.project || typed.since !== undefined ? 'Filters are on: remove agent:, project: or since: to search every session.' : undefined)],
        `${TITLE} — ${this.lastStatus}`);
      } catch (err) {
        if (mine !== generation) return;
        this.lastStatus = describeError(err);
        this.deps.log.error(`search: ${this.lastStatus}`);
        show([note(`$(error) Cannot search: ${this.lastStatus}`)]);
      } finally {
        if (mine === generation) qp.busy = false;
      }
    };
    const schedule = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => void run(), DEBOUNCE_MS);
    };

    // Before the listener: a query passed in is searched once, now, not again after the debounce.
    if (initial) qp.value = initial;
    return new Promise<Opened | undefined>((resolve) => {
      let opened: Opened | undefined;
      qp.onDidChangeValue(schedule);
      qp.onDidTriggerButton(() => {
        regex = !regex;
        qp.buttons = [regexButton()];
        qp.title = regex ? `${TITLE} (regular expression)` : TITLE;
        schedule();
      });
      qp.onDidAccept(() => {
        const pick = qp.selectedItems[0]?.pick ?? qp.activeItems[0]?.pick;
        if (!pick) return;
        opened = { file: pick.file, target: pick.target };
        qp.hide();
        this.deps.panels.show(pick.file, pick.target);
      });
      qp.onDidHide(() => {
        clearTimeout(timer);
        job?.cancel();
        generation++;
        qp.dispose();
        if (this.current === qp) this.current = undefined;
        resolve(opened);
      });
      if (initial) void run();
      qp.show();
    });
  }

  dispose(): void {
    this.current?.hide();
  }
}

export function registerSearchCommand(box: SearchBox): vscode.Disposable {
  // The palette and the view's title pass nothing; tests and keybindings may pass the query to start with.
  return vscode.commands.registerCommand(CommandIds.searchSessions, (initial?: unknown) => box.open(typeof initial === 'string' ? initial : undefined));
}
