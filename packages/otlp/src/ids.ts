// Trace and span ids for an exported record. They are derived from the record, not random, so
// that the same record always exports the same bytes (and export → import → export is stable):
// the trace id from the run id, each span id from the run id and the record's own span id.
import { sha256Hex } from '@runback/canonical';

/** 32 lowercase hex digits (16 bytes), never all zero (an invalid id in W3C Trace Context). */
export function traceIdFor(runId: string): string {
  return nonZero(sha256Hex(`runback-trace\u0000${runId}`).slice(0, 32));
}

/** 16 lowercase hex digits (8 bytes), never all zero. `occurrence` tells repeated span ids apart. */
export function spanIdFor(runId: string, spanId: string, occurrence: number): string {
  const suffix = occurrence === 0 ? '' : `\u0000${occurrence}`;
  return nonZero(sha256Hex(`runback-span\u0000${runId}\u0000${spanId}${suffix}`).slice(0, 16));
}

function nonZero(hex: string): string {
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}
