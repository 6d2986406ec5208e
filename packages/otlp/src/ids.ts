// Trace and span ids for an exported record. They are derived from the record, not random, so
// that the same record always exports the same bytes (and export → import → export is stable):
// the ids a record imported from OpenTelemetry kept in metadata.otel when they are sound,
// else the trace id from the run id and each span id from the run id and the record's own
// span id.
import { sha256Hex } from '@runback/canonical';
import { isRecord } from './json-text.js';

/** The trace or span id an imported event kept (metadata.otel), when it is a valid one. */
export function keptId(
  event: Readonly<Record<string, unknown>>,
  member: 'trace_id' | 'span_id',
): string | undefined {
  const metadata = event['metadata'];
  const otel = isRecord(metadata) ? metadata['otel'] : undefined;
  const id = isRecord(otel) ? otel[member] : undefined;
  const pattern = member === 'trace_id' ? /^[0-9a-f]{32}$/ : /^[0-9a-f]{16}$/;
  return typeof id === 'string' && pattern.test(id) && !/^0+$/.test(id) ? id : undefined;
}

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
