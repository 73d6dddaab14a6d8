// DOM builders that only ever set text through textContent: transcript text is never parsed as markup.
const SVG_NS = 'http://www.w3.org/2000/svg';

export interface Props {
  readonly class?: string;
  /** Set with textContent. */
  readonly text?: string;
  readonly title?: string;
  readonly attrs?: Readonly<Record<string, string>>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Node[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.text !== undefined) el.textContent = props.text;
  if (props.title !== undefined) el.title = props.title;
  for (const [k, v] of Object.entries(props.attrs ?? {})) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

/** SVG element; `title` becomes a <title> child (the SVG tooltip), also as a text node. */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Readonly<Record<string, string | number>>, title?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (title !== undefined) {
    const t = document.createElementNS(SVG_NS, 'title');
    t.textContent = title;
    el.append(t);
  }
  return el;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export const formatTokens = (n: number): string => integer.format(n);
export const formatCompact = (n: number): string => compact.format(n);
export const formatPercent = (part: number, whole: number): string =>
  whole > 0 ? `${(part / whole * 100).toFixed(part / whole < 0.01 ? 2 : 1)}%` : '0%';

/** Makes a non-button element act like one for mouse and keyboard. */
export function onActivate(el: Element, action: () => void): void {
  el.addEventListener('click', action);
  el.addEventListener('keydown', (e) => {
    const key = (e as KeyboardEvent).key;
    if (key === 'Enter' || key === ' ') {
      e.preventDefault();
      action();
    }
  });
}
