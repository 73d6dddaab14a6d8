// Form controls for the Simulator and Cleanup tabs (vscode-elements), plus the request bookkeeping they share.
import { clampTo, type Range } from '../src/protocol/limits';
import { h } from './dom';

/** What main.ts needs of the Simulator and Cleanup tabs. */
export interface AnalysisTab<Answer> {
  readonly element: HTMLElement;
  /** A (re)loaded session: earlier results are void; the host is asked again on the next activate(). */
  session(sessionId: string): void;
  /** The tab became visible: the first time per session it asks the host. */
  activate(): void;
  /** A host answer; those for an older request or session are dropped. */
  answer(msg: Answer): void;
}

/** Slider drags and typing settle for this long before the host recomputes. */
export const DEBOUNCE_MS = 150;

export interface NumberControl {
  readonly element: HTMLElement;
  readonly value: number;
  set(value: number): void;
  setDisabled(disabled: boolean): void;
}

let ids = 0;

/**
 * A labelled number field, optionally with a range slider kept in step. `onChange` gets the clamped
 * value on every edit; the field itself is only rewritten (to the clamped value) when it loses focus,
 * so typing "50000" is not interrupted by a clamp of "5".
 */
export function numberControl(label: string, range: Range, initial: number, onChange: (value: number) => void, opts: { slider?: boolean; id: string }): NumberControl {
  const fieldId = `${opts.id}-${++ids}`;
  let value = clampTo(range, initial);
  const field = document.createElement('vscode-textfield');
  field.type = 'number';
  field.id = fieldId;
  field.min = range.min;
  field.max = range.max;
  field.step = range.step;
  field.value = String(value);
  field.dataset.control = opts.id;
  const labelEl = document.createElement('vscode-label');
  labelEl.htmlFor = fieldId;
  labelEl.textContent = label;
  let slider: HTMLInputElement | undefined;
  const update = (next: number, from: 'field' | 'slider'): void => {
    value = clampTo(range, next, value);
    if (from === 'field' && slider) slider.value = String(value);
    if (from === 'slider') field.value = String(value);
    onChange(value);
  };
  field.addEventListener('input', () => { if (field.value.trim() !== '') update(Number(field.value), 'field'); });
  field.addEventListener('change', () => { field.value = String(value); });
  const row = h('div', { class: 'control' }, labelEl, field);
  if (opts.slider) {
    slider = h('input', { class: 'slider', attrs: { type: 'range', min: String(range.min), max: String(range.max), step: String(range.step), 'aria-label': label, 'data-control': `${opts.id}-slider` } });
    slider.value = String(value);
    const s = slider;
    s.addEventListener('input', () => update(Number(s.value), 'slider'));
    row.append(slider);
  }
  return {
    element: row,
    get value() { return value; },
    set(next) {
      value = clampTo(range, next, value);
      field.value = String(value);
      if (slider) slider.value = String(value);
    },
    setDisabled(disabled) {
      field.disabled = disabled;
      if (slider) slider.disabled = disabled;
    },
  };
}

export function checkbox(label: string, checked: boolean, onChange: (checked: boolean) => void, attrs: Readonly<Record<string, string>> = {}): HTMLElementTagNameMap['vscode-checkbox'] {
  const box = document.createElement('vscode-checkbox');
  box.label = label;
  box.checked = checked;
  for (const [k, v] of Object.entries(attrs)) box.setAttribute(k, v);
  box.addEventListener('change', () => onChange(box.checked));
  return box;
}

/** Calls `run` once, `ms` after the last of a burst of calls (slider drags, typing). */
export function debounce(run: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
}

/** Numbers requests and tells whether a reply answers the latest one (older answers are dropped). */
export class LatestRequest {
  private last = -1;
  next(): number {
    return ++this.last;
  }
  isLatest(requestId: number): boolean {
    return requestId === this.last;
  }
}

/** One figure of a totals strip: label, value, a line of detail. */
export function stat(label: string, value: string, detail: string, key: string): HTMLElement {
  return h('div', { class: 'stat', attrs: { 'data-stat': key } },
    h('div', { class: 'stat-label', text: label }), h('div', { class: 'stat-value', text: value }), h('div', { class: 'stat-detail', text: detail }));
}
