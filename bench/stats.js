// Timing helpers. Each timed call starts from a collected heap (node --expose-gc), and the
// functions being compared are interleaved, so drift and the previous run's garbage do not
// favour either side.
import { performance } from 'node:perf_hooks';

const collect = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

/** Median wall time in ms of each function, calling them in turn `runs` times after `warmup` rounds. */
export function interleavedMedians(fns, { runs = 7, warmup = 2 } = {}) {
  const times = fns.map(() => []);
  for (let round = 0; round < warmup + runs; round++) {
    fns.forEach((fn, i) => {
      collect();
      const t = performance.now();
      fn();
      const elapsed = performance.now() - t;
      if (round >= warmup) times[i].push(elapsed);
    });
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    return list[Math.floor(list.length / 2)];
  });
}

export const fmt = (n, digits = 1) => n.toFixed(digits).padStart(8);
