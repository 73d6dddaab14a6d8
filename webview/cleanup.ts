// The Cleanup tab: rules with their savings on this session, the protected recent part, totals, Open diff.
import { TERMS_LINE } from '../src/core/inspect/terms';
import { CLEANUP_LIMITS } from '../src/protocol/limits';
import type { CleanupInput, CleanupPreview, RuleRow, ToWebview } from '../src/protocol/messages';
import type { WebviewApi } from './api';
import { checkbox, debounce, DEBOUNCE_MS, LatestRequest, numberControl, stat, type AnalysisTab } from './controls';
import { formatPercent, formatTokens, h } from './dom';

type Answer = Extract<ToWebview, { type: 'cleanupPreviewed' | 'analysisFailed' }>;

export function createCleanupTab(api: WebviewApi, saved: CleanupInput | undefined, onOptions: (o: CleanupInput) => void): AnalysisTab<Answer> {
  let sessionId: string | undefined;
  let asked = false;
  let options = saved;
  let preview: CleanupPreview | undefined;
  const latest = new LatestRequest();

  const request = (): void => {
    if (!sessionId) return;
    asked = true;
    element.classList.add('pending');
    api.post('previewCleanup', { sessionId, requestId: latest.next(), ...(options ? { options } : {}) });
  };
  const changed = debounce(request, DEBOUNCE_MS);
  const edit = (patch: Partial<CleanupInput>): void => {
    const base = options ?? preview?.options;
    if (!base) return; // nothing to edit before the first answer
    options = {
      keepRecentTurns: turns.value, keepRecentTokens: byTokens.checked ? tokens.value : 0,
      ...patch, rules: { ...base.rules, ...patch.rules },
    };
    syncProtection();
    onOptions(options);
    changed();
  };
  const turns = numberControl('Keep recent model turns verbatim', CLEANUP_LIMITS.keepRecentTurns, saved?.keepRecentTurns ?? 6, () => edit({}), { id: 'protect-turns' });
  const byTokens = checkbox('Protect by a token budget instead', (saved?.keepRecentTokens ?? 0) > 0, () => edit({}), { 'data-control': 'protect-by-tokens' });
  const tokens = numberControl('Token budget of the recent part', CLEANUP_LIMITS.keepRecentTokens, saved?.keepRecentTokens || 20_000, () => edit({}), { id: 'protect-tokens' });
  const syncProtection = (): void => {
    turns.setDisabled(byTokens.checked);
    tokens.setDisabled(!byTokens.checked);
  };
  syncProtection();

  const openDiff = document.createElement('vscode-button');
  openDiff.textContent = 'Compact with these options…';
  openDiff.title = 'Runs Compact transcript with these options: shows the diff original ↔ compacted; nothing is written until you Accept';
  openDiff.dataset.action = 'open-diff';
  openDiff.addEventListener('click', () => {
    const o = options ?? preview?.options;
    if (sessionId && o) api.post('openDiff', { sessionId, options: o });
  });

  // The same flow, written for another agent the host asks for (Claude Code, Codex, Gemini CLI, OpenCode, Goose).
  const continueIn = document.createElement('vscode-button');
  continueIn.textContent = 'Continue in another agent…';
  continueIn.title = 'Compacts with these options and writes the session for another agent you pick: the diff first, nothing written until you Accept';
  continueIn.dataset.action = 'continue-in';
  continueIn.setAttribute('secondary', '');
  continueIn.addEventListener('click', () => {
    const o = options ?? preview?.options;
    if (sessionId && o) api.post('openDiff', { sessionId, options: o, continueIn: true });
  });

  const totals = h('div', { class: 'stats cleanup-totals' });
  const status = h('p', { class: 'note cleanup-status' });
  const table = h('div', { class: 'rule-table', attrs: { role: 'table', 'aria-label': 'Cleanup rules' } });
  const element = h('div', { class: 'analysis cleanup' },
    h('section', { class: 'card controls' },
      h('h2', { text: 'Protected recent part' }),
      h('div', { class: 'control-grid' }, turns.element, h('div', { class: 'control' }, byTokens), tokens.element),
      h('p', { class: 'note', text: 'The protected part, and the latest prompt, stay verbatim; the rules only change what is older.' })),
    h('p', { class: 'note terms', text: TERMS_LINE }),
    totals, status,
    h('section', { class: 'card' }, h('div', { class: 'title-row' }, h('h2', { text: 'Rules' }), openDiff, continueIn), table));

  const renderRules = (p: CleanupPreview): void => {
    const max = p.rules.reduce((m, r) => Math.max(m, r.tokensSaved), 1);
    table.replaceChildren(
      h('div', { class: 'rule-row rule-head', attrs: { role: 'row' } },
        ...['Rule', 'What it does', 'Saves', 'Items'].map((t) => h('span', { text: t, attrs: { role: 'columnheader' } }))),
      ...p.rules.map((r) => ruleRow(r, max, (on) => edit({ rules: { [r.id]: on } }))));
  };

  const showTotals = (p: CleanupPreview): void => {
    const recall = p.identifierRecall;
    const prot = p.options.keepRecentTokens > 0 ? `budget ${formatTokens(p.options.keepRecentTokens)} tokens` : `${p.options.keepRecentTurns} model turns`;
    const kept = p.protectedParts.map((x) => `${x.reason}: ${formatTokens(x.tokens)}`).join('; ');
    totals.replaceChildren(
      stat('History cut', formatPercent(p.history.before - p.history.after, p.history.before), `${formatTokens(p.history.before)} → ${formatTokens(p.history.after)} tokens${p.tooSmallToCompact ? ' · too small to compact' : ''}`, 'history-reduction'),
      stat('Whole request', formatPercent(p.before - p.after, p.before), `${formatTokens(p.before)} → ${formatTokens(p.after)} tokens, harness ${formatTokens(p.harnessTokens)}${p.harnessAfterTokens !== p.harnessTokens ? ` → ${formatTokens(p.harnessAfterTokens)}` : ''}`, 'reduction'),
      stat('Kept verbatim', `${formatTokens(p.protected.tokens)} tokens`, `${formatTokens(p.protected.turns)} recent turns (${prot}) · ${kept}`, 'protected'),
      stat('Identifier recall', recall ? formatPercent(recall.recall, 1) : '—', recall ? `of ${formatTokens(recall.total)} paths, URLs, hashes, ids and error codes in the text the rules change` : 'nothing changed', 'recall'));
  };

  return {
    element,
    session(next) {
      sessionId = next;
      asked = false;
      preview = undefined;
    },
    activate() {
      if (!asked) request();
    },
    answer(msg) {
      if (msg.sessionId !== sessionId || !latest.isLatest(msg.requestId)) return;
      element.classList.remove('pending');
      if (msg.type === 'analysisFailed') { status.textContent = `Preview failed: ${msg.message}`; return; }
      const p = msg.preview;
      status.textContent = p.harnessNote ?? '';
      preview = p;
      if (!options) {
        // The first answer tells what the settings gave: the controls show it from now on.
        options = p.options;
        turns.set(options.keepRecentTurns);
        byTokens.checked = options.keepRecentTokens > 0;
        if (options.keepRecentTokens > 0) tokens.set(options.keepRecentTokens);
        syncProtection();
      }
      showTotals(p);
      renderRules(p);
    },
  };
}

function ruleRow(r: RuleRow, max: number, onToggle: (on: boolean) => void): HTMLElement {
  const fill = h('span', { class: 'tool-fill' });
  // CSSOM writes are allowed under the CSP; style attributes in markup are not.
  fill.style.width = `${r.tokensSaved > 0 ? Math.max(0.5, (r.tokensSaved / max) * 100) : 0}%`;
  return h('div', { class: `rule-row${r.enabled ? '' : ' off'}`, attrs: { role: 'row', 'data-rule': r.id } },
    h('span', { attrs: { role: 'cell' } }, checkbox(r.label, r.enabled, onToggle, { 'data-rule-toggle': r.id })),
    h('span', { class: 'rule-desc', text: r.description, attrs: { role: 'cell' } }),
    h('span', { class: 'rule-saved', attrs: { role: 'cell' } }, h('span', { class: 'tool-track' }, fill), h('span', { class: 'num', text: formatTokens(r.tokensSaved) })),
    h('span', { class: 'num rule-applied', text: formatTokens(r.applied), attrs: { role: 'cell' } }));
}
