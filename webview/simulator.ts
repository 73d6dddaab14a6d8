// The Simulator tab: policy controls, context and billed-input charts, totals; recomputed by the host.
import { SIMULATION_LIMITS } from '../src/protocol/limits';
import type { SimulationPolicyInput, SimulationView, ToWebview } from '../src/protocol/messages';
import type { WebviewApi } from './api';
import { renderBilledChart, renderContextChart, renderSimLegend } from './charts/simChart';
import { checkbox, debounce, DEBOUNCE_MS, LatestRequest, numberControl, stat, type AnalysisTab } from './controls';
import { formatPercent, formatTokens, h } from './dom';

type Answer = Extract<ToWebview, { type: 'simulationLoaded' | 'analysisFailed' }>;

export function createSimulatorTab(api: WebviewApi, saved: SimulationPolicyInput | undefined, onPolicy: (p: SimulationPolicyInput) => void): AnalysisTab<Answer> {
  let sessionId: string | undefined;
  let asked = false;
  let policy = saved;
  let sim: SimulationView | undefined;
  const latest = new LatestRequest();
  const L = SIMULATION_LIMITS;

  const request = (): void => {
    if (!sessionId) return;
    asked = true;
    element.classList.add('pending');
    api.post('simulate', { sessionId, requestId: latest.next(), ...(policy ? { policy } : {}) });
  };
  const changed = debounce(request, DEBOUNCE_MS);
  const edit = (patch: Partial<SimulationPolicyInput>): void => {
    policy = { threshold: threshold.value, keepRecentTurns: keep.value, summary: summary.checked, summaryTokens: summaryTokens.value, ...patch };
    summaryTokens.setDisabled(!policy.summary);
    onPolicy(policy);
    changed();
  };
  const threshold = numberControl('Compaction threshold (tokens)', L.threshold, policy?.threshold ?? 150_000, (v) => edit({ threshold: v }), { slider: true, id: 'threshold' });
  const keep = numberControl('Keep recent model turns', L.keepRecentTurns, policy?.keepRecentTurns ?? 6, (v) => edit({ keepRecentTurns: v }), { id: 'keep-recent' });
  const summary = checkbox('Summarize the older part', policy?.summary ?? true, (on) => edit({ summary: on }), { 'data-control': 'summary' });
  const summaryTokens = numberControl('Modeled summary size (tokens)', L.summaryTokens, policy?.summaryTokens ?? 2_000, (v) => edit({ summaryTokens: v }), { id: 'summary-tokens' });
  summaryTokens.setDisabled(!summary.checked);

  const totals = h('div', { class: 'stats sim-totals' });
  const contextBody = h('div', { class: 'section-body' });
  const billedBody = h('div', { class: 'section-body' });
  const status = h('p', { class: 'note sim-status' });
  const element = h('div', { class: 'analysis simulator' },
    h('section', { class: 'card controls' },
      h('h2', { text: 'Rolling compaction policy' }),
      h('div', { class: 'control-grid' }, threshold.element, keep.element, h('div', { class: 'control' }, summary), summaryTokens.element),
      h('p', { class: 'note', text: 'Replays this session: whenever a request would pass the threshold, the older part is cleaned (and summarized) first. No model is called.' })),
    totals, status,
    h('section', { class: 'card' }, h('h2', { text: 'Context per request' }), renderSimLegend(), contextBody),
    h('section', { class: 'card' }, h('h2', { text: 'Cumulative billed input' }), billedBody));

  const render = (): void => {
    if (!sim) return;
    const width = contextBody.clientWidth;
    if (width === 0) return; // hidden tab: drawn when shown (the ResizeObserver fires then)
    contextBody.replaceChildren(renderContextChart(sim, width));
    billedBody.replaceChildren(renderBilledChart(sim, width));
  };
  let lastWidth = 0;
  new ResizeObserver(() => {
    if (contextBody.clientWidth !== lastWidth) { lastWidth = contextBody.clientWidth; render(); }
  }).observe(contextBody);

  const showTotals = (s: SimulationView): void => {
    const t = s.totals;
    const saved = t.billedInputWithout - t.billedInputWith;
    const summaryInput = s.turns.reduce((a, x) => a + x.summaryInput, 0);
    totals.replaceChildren(
      stat('Billed input saved', formatPercent(Math.max(0, saved), t.billedInputWithout), `${formatTokens(t.billedInputWithout)} → ${formatTokens(t.billedInputWith)} tokens`, 'saved'),
      stat('Compactions', formatTokens(t.compactions), summaryInput > 0 ? `summary calls read ${formatTokens(summaryInput)} tokens (included)` : 'no summary calls', 'compactions'),
      stat('Peak context', formatTokens(t.peakWith), `without: ${formatTokens(t.peakWithout)}`, 'peak'));
  };

  return {
    element,
    session(next) {
      sessionId = next;
      asked = false;
      sim = undefined;
    },
    activate() {
      if (!asked) request();
    },
    answer(msg) {
      if (msg.sessionId !== sessionId || !latest.isLatest(msg.requestId)) return; // an older request or session
      element.classList.remove('pending');
      if (msg.type === 'analysisFailed') { status.textContent = `Simulation failed: ${msg.message}`; return; }
      status.textContent = '';
      sim = msg.simulation;
      if (!policy) {
        // The first answer tells what the settings gave: the controls show it from now on.
        policy = sim.policy;
        threshold.set(policy.threshold); keep.set(policy.keepRecentTurns); summaryTokens.set(policy.summaryTokens);
        summary.checked = policy.summary;
        summaryTokens.setDisabled(!policy.summary);
      }
      showTotals(sim);
      render();
    },
  };
}
