// Timing helpers: run a function several times after a warm-up and report the median.
import { performance } from 'node:perf_hooks';

/** Median wall time in ms of `runs` calls of `fn` after `warmup` calls. */
export function medianMs(fn, { runs = 7, warmup = 2 } = {}) {
  for (let i = 0; i < warmup; i++) fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export const fmt = (n, digits = 1) => n.toFixed(digits).padStart(8);
