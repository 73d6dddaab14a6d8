// The `inspect` result: a stable JSON shape shared by the CLI, the extension and the webview.
import type { FigureSource, FormatId, Session, TokenKind } from '../model/transcript';
import { compose, type CompositionItem, type TurnFigure } from '../tokens/composition';

export interface InspectReport {
  readonly format: FormatId;
  readonly file?: string;
  readonly bytes?: number;
  readonly sessionId: string;
  readonly title?: string;
  readonly cwd?: string;
  readonly models: string[];
  readonly records: number;
  readonly messages: number;
  readonly turns: number;
  readonly tokens: {
    readonly total: number;
    readonly source: FigureSource;
    readonly byKind: Record<TokenKind, number>;
    readonly byTool: Record<string, number>;
    readonly recordedContext?: number;
    readonly contextWindow?: number;
    readonly estimator: { readonly method: 'class-ratios'; readonly scale: number; readonly systemOverhead: number; readonly meanErrorRaw?: number; readonly meanErrorCalibrated?: number; readonly turnsCompared: number };
  };
  readonly perTurn: TurnFigure[];
  readonly top: CompositionItem[];
  readonly warnings: string[];
}

export function buildInspectReport(session: Session, file?: { path: string; bytes: number }): InspectReport {
  const c = compose(session);
  const byTool = Object.fromEntries(Object.entries(c.byTool).sort((a, b) => b[1] - a[1]));
  return {
    format: session.format, file: file?.path, bytes: file?.bytes, sessionId: session.id, title: session.title, cwd: session.cwd,
    models: session.models, records: session.records.length, messages: session.messages.length, turns: session.turns.length,
    tokens: {
      total: c.total, source: c.source, byKind: c.byKind, byTool, recordedContext: session.recordedContext, contextWindow: session.contextWindow,
      estimator: {
        method: 'class-ratios', scale: round3(c.calibration.scale), systemOverhead: Math.round(c.calibration.overhead),
        meanErrorRaw: opt(c.calibration.meanErrorRaw), meanErrorCalibrated: opt(c.calibration.meanErrorCalibrated), turnsCompared: c.calibration.turnsCompared,
      },
    },
    perTurn: c.perTurn, top: c.top, warnings: [...session.warnings, ...(c.source === 'recorded' ? overWindow(c.total, session, c.calibration.scale) : [])],
  };
}

/**
 * A context past the window cannot be sent as it is: said, not left as "272,231 tokens of a 272,000 window". Only of a
 * figure anchored on recorded usage (the caller checks): an agent that records none (Aider, Copilot Chat, Cline) trims or
 * summarizes its history itself before each request, and an uncalibrated estimate a few percent over proves nothing.
 * The recorded facts must put it over too: the last request's context and its response's output as recorded, and the
 * estimate of what followed the last response only (a real 220 KB call, estimated at 68,869 tokens, was 46,555).
 */
function overWindow(total: number, session: Session, scale: number): string[] {
  const window = session.contextWindow;
  if (window === undefined || window <= 0 || total <= window || session.recordedContext === undefined) return [];
  let output = 0;
  for (let i = session.messages.length - 1; i >= 0; i--) { const u = session.messages[i]!.usage; if (u) { output = u.outputTokens; break; } }
  let lastReply = session.messages.length - 1;
  while (lastReply >= 0 && session.messages[lastReply]!.role !== 'assistant') lastReply--;
  let after = 0;
  for (const m of session.messages.slice(lastReply + 1)) for (const b of m.blocks) after += b.tokens;
  if (session.recordedContext + output + after * scale <= window) return [];
  return [`the context (${total.toLocaleString('en-US')} tokens) is larger than the model's ${window.toLocaleString('en-US')}-token window: the agent must compact or drop history before its next request`];
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;
const opt = (n: number | undefined): number | undefined => (n === undefined ? undefined : round3(n));
