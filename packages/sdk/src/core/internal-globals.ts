// The real clock, randomness and fetch, saved when the SDK is first loaded. Environment capture
// (env/) replaces the globals inside recorded runs; the SDK's own timestamps, ids and I/O must
// never be captured or served from a cassette, so they always go through these. A copy of the
// SDK loaded after another has captured the globals takes the first copy's save (sdk-registry).
import { savedGlobals } from './sdk-registry.js';

const RealDate = savedGlobals.Date;
const realDateNow = savedGlobals.dateNow;
const realMathRandom = savedGlobals.random;
const realPerformanceNow = savedGlobals.performanceNow;
const realUUID = savedGlobals.randomUUID;

/** The real Date constructor. */
export const OriginalDate = RealDate;

/** The real global fetch (undefined on runtimes without one). */
export const originalFetch: typeof fetch | undefined = savedGlobals.fetch;

/** Milliseconds since the epoch, from the real clock. */
export function realNow(): number {
  return realDateNow();
}

/** A random number from the real Math.random. */
export function realRandom(): number {
  return realMathRandom();
}

/** A monotonic millisecond clock for latencies. */
export function monotonicMs(): number {
  return realPerformanceNow();
}

/** A random UUID from node:crypto (never the captured globalThis.crypto.randomUUID). */
export function realRandomUUID(): string {
  return realUUID();
}

// Calls a few microseconds apart read the same millisecond: its text is kept, not rebuilt.
let lastMs = NaN;
let lastIso = '';

/** ISO 8601 with milliseconds and `Z` (docs/spec.md §5), from the real clock. */
export function isoNow(): string {
  const ms = realDateNow();
  if (ms !== lastMs) {
    lastIso = new RealDate(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/** Elapsed milliseconds rounded to microseconds, so latencies read cleanly. */
export function elapsedMs(startMs: number): number {
  return Math.round((realPerformanceNow() - startMs) * 1000) / 1000;
}
