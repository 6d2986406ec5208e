// Timing helpers. Each timed call starts from a collected heap (node --expose-gc), and the
// functions being compared are interleaved, so drift and the previous run's garbage do not
// favour either side.
import { performance } from 'node:perf_hooks';

const collect = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

/** The median of a list of numbers (the upper one of the middle two for an even count). */
export function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Wall and CPU times in ms (process.cpuUsage: user + system, every thread of the process) of
 * each function, sync or async, calling them in turn `runs` times after `warmup` rounds: per
 * function, `wall` and `cpu` list the timed rounds in order, so that round k of one function
 * ran right beside round k of the others. On a virtual machine whose host takes CPU away now
 * and then, the time taken away counts in wall time but not in CPU time.
 */
export async function interleavedRounds(fns, { runs = 7, warmup = 2 } = {}) {
  const rounds = fns.map(() => ({ wall: [], cpu: [] }));
  for (let round = 0; round < warmup + runs; round++) {
    for (let i = 0; i < fns.length; i++) {
      collect();
      const cpu = process.cpuUsage();
      const t = performance.now();
      const returned = fns[i]();
      // Only a promise is waited for: awaiting a sync function's result would time a microtask.
      if (returned instanceof Promise) await returned;
      const elapsed = performance.now() - t;
      const used = process.cpuUsage(cpu);
      if (round >= warmup) {
        rounds[i].wall.push(elapsed);
        rounds[i].cpu.push((used.user + used.system) / 1000);
      }
    }
  }
  return rounds;
}

/**
 * The ratios of `b` to `a` timed side by side: of the medians (wall and CPU), and the lowest
 * and highest of the ratios round by round, which show how much the machine moved meanwhile.
 */
export function sideBySide(a, b) {
  const perRound = b.wall.map((t, k) => t / a.wall[k]);
  return {
    floor_ms: median(a.wall),
    verify_ms: median(b.wall),
    ratio: median(b.wall) / median(a.wall),
    ratio_min: Math.min(...perRound),
    ratio_max: Math.max(...perRound),
    cpu_ratio: median(b.cpu) / median(a.cpu),
  };
}

/** Median wall time in ms of each function, timed as interleavedRounds times them. */
export async function interleavedMedians(fns, options) {
  return (await interleavedRounds(fns, options)).map((r) => median(r.wall));
}

export const fmt = (n, digits = 1) => n.toFixed(digits).padStart(8);
