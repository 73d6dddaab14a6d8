// The one-summary-call policy: bounded retries with backoff, one deadline across all attempts, cancel.
import { isRetryable, ProviderError, type Summarizer, type SummaryRequest, type SummaryResult } from './provider.js';

export interface Clock {
  now(): number;
  /** Resolves after ms; rejects (with any reason) as soon as signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export interface CallPolicyOptions {
  /** Total time budget in ms for all attempts and waits, measured from the call. */
  deadlineMs: number;
  /** Retries after the first attempt (so at most 1 + maxRetries calls). */
  maxRetries: number;
  clock: Clock;
  /** Returns a number in [0, 1); used for jitter. */
  random: () => number;
  /** The user's cancel. */
  signal: AbortSignal;
  /** First backoff step before jitter; doubles per retry. Default 500 ms. */
  baseDelayMs?: number;
  /** Cap on one backoff step. Default 8000 ms. */
  maxDelayMs?: number;
}

export type PolicyOutcome =
  | { ok: true; result: SummaryResult; attempts: number }
  | { ok: false; error: ProviderError; attempts: number };

// No configuration may turn the policy into a loop.
const MAX_RETRIES_CEILING = 5;

export async function runWithPolicy(
  summarizer: Summarizer,
  req: SummaryRequest,
  options: CallPolicyOptions,
): Promise<PolicyOutcome> {
  const { clock, signal } = options;
  const deadlineAt = clock.now() + Math.max(0, options.deadlineMs);
  const maxAttempts = 1 + Math.min(MAX_RETRIES_CEILING, Math.max(0, Math.floor(options.maxRetries)));
  let attempts = 0;
  let lastError: ProviderError | undefined;

  while (attempts < maxAttempts) {
    if (signal.aborted) return { ok: false, error: cancelled(), attempts };
    const remaining = deadlineAt - clock.now();
    if (remaining <= 0) return { ok: false, error: lastError ?? deadlinePassed(options.deadlineMs), attempts };

    attempts += 1;
    const outcome = await attempt(summarizer, req, clock, signal, remaining, options.deadlineMs);
    if (outcome.ok) return { ok: true, result: outcome.result, attempts };
    const error = outcome.error;
    lastError = error;
    if (!isRetryable(error.kind) || attempts >= maxAttempts) return { ok: false, error, attempts };

    const delay = error.retryAfterMs ?? backoff(attempts, options);
    // Waiting past the deadline only to give up afterwards helps nobody: fail now with the real cause.
    if (clock.now() + delay >= deadlineAt) return { ok: false, error, attempts };
    try {
      await clock.sleep(delay, signal);
    } catch {
      return { ok: false, error: cancelled(), attempts };
    }
  }
  // Unreachable: every path through the loop body returns once attempts reaches maxAttempts.
  return { ok: false, error: lastError ?? deadlinePassed(options.deadlineMs), attempts };
}

type AttemptOutcome = { ok: true; result: SummaryResult } | { ok: false; error: ProviderError };

/** One call with its own signal that fires at the deadline or on the user's cancel, whichever is first. */
async function attempt(
  summarizer: Summarizer,
  req: SummaryRequest,
  clock: Clock,
  userSignal: AbortSignal,
  remainingMs: number,
  deadlineMs: number,
): Promise<AttemptOutcome> {
  const controller = new AbortController();
  const timerStop = new AbortController();
  let deadlineHit = false;
  const onUserAbort = (): void => controller.abort(userSignal.reason);
  userSignal.addEventListener('abort', onUserAbort, { once: true });
  clock.sleep(remainingMs, timerStop.signal).then(
    () => { deadlineHit = true; controller.abort(new Error('deadline')); },
    () => { /* the attempt settled first */ },
  );
  // Race the call against our own signal, so a summarizer that ignores its signal still cannot hang us.
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
  aborted.catch(() => { /* handled through the race below */ });
  try {
    const result = await Promise.race([summarizer.summarize(req, controller.signal), aborted]);
    const problem = validate(result);
    return problem ? { ok: false, error: problem } : { ok: true, result };
  } catch (err) {
    if (userSignal.aborted) return { ok: false, error: cancelled() };
    if (deadlineHit) return { ok: false, error: deadlinePassed(deadlineMs) };
    return { ok: false, error: toProviderError(err) };
  } finally {
    timerStop.abort();
    userSignal.removeEventListener('abort', onUserAbort);
  }
}

function validate(result: SummaryResult): ProviderError | undefined {
  if (typeof result?.text !== 'string' || result.text.trim() === '') {
    return new ProviderError('malformed', 'the provider returned an empty summary');
  }
  return undefined;
}

/** Summarizers should throw ProviderError; anything else is a bug there, reported without its text. */
function toProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const name = err instanceof Error ? err.name : typeof err;
  return new ProviderError('other', `unexpected ${name} from the provider`);
}

/** Exponential backoff with "equal jitter": half the step is fixed, half random, so retries spread out. */
function backoff(retryNumber: number, options: CallPolicyOptions): number {
  const base = options.baseDelayMs ?? 500;
  const cap = options.maxDelayMs ?? 8000;
  const step = Math.min(cap, base * 2 ** (retryNumber - 1));
  const r = Math.min(Math.max(options.random(), 0), 1);
  return Math.round(step / 2 + (step / 2) * r);
}

function cancelled(): ProviderError {
  return new ProviderError('aborted', 'cancelled');
}

function deadlinePassed(deadlineMs: number): ProviderError {
  return new ProviderError('timeout', `no summary within the ${(deadlineMs / 1000).toFixed(1)} s deadline`);
}
