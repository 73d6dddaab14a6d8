// The real clock and randomness for the call policy (the core gets them injected).
import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '../../core/summary/callPolicy.js';

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(ms, undefined, { signal }),
};

export const systemRandom = (): number => Math.random();
