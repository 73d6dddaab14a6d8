// A virtual clock for call-policy tests: time jumps to the next timer whenever the program is idle.
import type { Clock } from '../../src/core/summary/callPolicy.js';

interface Timer { at: number; resolve: () => void }

export class VirtualClock implements Clock {
  private t = 0;
  private timers: Timer[] = [];
  private scheduled = false;
  /** Every sleep asked for, in ms, in order (the deadline timers included). */
  readonly sleeps: number[] = [];

  now(): number { return this.t; }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const timer: Timer = { at: this.t + ms, resolve: () => { signal.removeEventListener('abort', onAbort); resolve(); } };
      const onAbort = (): void => { this.timers = this.timers.filter((x) => x !== timer); reject(signal.reason); };
      signal.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
      this.schedule();
    });
  }

  // setImmediate runs after all pending promise callbacks, i.e. when nothing but timers can make progress.
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers.shift();
      if (!next) return;
      this.t = Math.max(this.t, next.at);
      next.resolve();
      if (this.timers.length > 0) this.schedule();
    });
  }
}
