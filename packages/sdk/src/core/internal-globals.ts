// The real clock, randomness and fetch, saved when the SDK is first loaded. Environment capture
// (env/) replaces the globals inside recorded runs; the SDK's own timestamps, ids and I/O must
// never be captured or served from a cassette, so they always go through these.
import { randomUUID as cryptoRandomUUID } from 'node:crypto';

const RealDate = Date;
const realDateNow = Date.now.bind(Date);
const realMathRandom = Math.random.bind(Math);
const realPerformanceNow = performance.now.bind(performance);
// A copy of the binding taken now: capture later refreshes node:crypto's named exports.
const realUUID = cryptoRandomUUID;

/** The real Date constructor. */
export const OriginalDate = RealDate;

/** The real global fetch (undefined on runtimes without one). */
export const originalFetch: typeof fetch | undefined =
  typeof globalThis.fetch === 'function' ? globalThis.fetch.bind(globalThis) : undefined;

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

/** ISO 8601 with milliseconds and `Z` (docs/spec.md §5), from the real clock. */
export function isoNow(): string {
  return new RealDate(realDateNow()).toISOString();
}

/** Elapsed milliseconds rounded to microseconds, so latencies read cleanly. */
export function elapsedMs(startMs: number): number {
  return Math.round((realPerformanceNow() - startMs) * 1000) / 1000;
}
