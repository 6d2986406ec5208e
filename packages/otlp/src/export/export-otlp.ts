// runback record → OTLP/JSON (ExportTraceServiceRequest), serialized by the official
// @opentelemetry/otlp-transformer JSON serializer from spans the official SDK built.
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { VerifyResult } from '@runback/verify';
import { describe, OtlpError } from '../errors.js';
import { isRecord, jsonText, numberOr, stringOr } from '../json-text.js';
import * as N from '../names.js';
import { buildSpans, type RootFacts } from './build-spans.js';
import { readRecord, type EventView, type RecordView } from './record-view.js';

/** Options of {@link exportOtlp}. */
export interface ExportOptions {
  /**
   * The record's verification result (`verify` / `verifyJson` of @runback/verify, with the
   * caller's pinned keys): its verdict, checks and signer go on the root span.
   */
  readonly verification: VerifyResult;
  /** `service.name` of the resource; default: the run's name, else "runback". */
  readonly serviceName?: string;
  /**
   * Write prompts, answers, tool arguments and results (the GenAI content attributes, and the
   * events' exact JSON that lets an import rebuild the record); default true. With false,
   * spans keep models, tokens, tool names, times, errors and the proof facts only — for a
   * backend that must not see content — and an import reads them from GenAI attributes.
   */
  readonly content?: boolean;
  /** The instrumentation scope's version; default "0.0.0". */
  readonly scopeVersion?: string;
}

/** What {@link exportOtlp} produced. */
export interface OtlpExport {
  /** The OTLP/JSON text of one ExportTraceServiceRequest (what an OTLP/HTTP JSON exporter posts). */
  readonly json: string;
  readonly traceId: string;
  /** Spans written: the root plus one per llm and tool event. */
  readonly spanCount: number;
  /** Other events written as span events (reasoning, env, unknown types). */
  readonly spanEventCount: number;
}

/**
 * Converts a record (parsed JSON) to OTLP/JSON traces with the GenAI semantic conventions.
 * Deterministic: ids derive from the record, so the same record and verification give the
 * same bytes. Throws an OtlpError (`OTLP_NOT_A_RECORD`) for input not shaped like a record.
 */
export function exportOtlp(record: unknown, options: ExportOptions): OtlpExport {
  const view = readRecord(record);
  let root: RootFacts;
  try {
    root = rootFacts(view, options.verification, options.content ?? true);
  } catch (err) {
    if (err instanceof OtlpError) throw err;
    throw new OtlpError(
      'OTLP_NOT_A_RECORD',
      `expected the record to be JSON data, got ${describe(err)}: ${String(err)}`,
    );
  }
  const serviceName = options.serviceName ?? (stringOr(view.run['name']) || 'runback');
  const resource = resourceFromAttributes({ [N.ATTR_SERVICE_NAME]: serviceName });
  let spans;
  try {
    spans = buildSpans(view, root, resource, options.scopeVersion ?? '0.0.0');
  } catch (err) {
    // canonical() refuses values JSON cannot hold (a record handed over as an object).
    if (err instanceof TypeError && typeof (err as { code?: unknown }).code === 'string')
      throw new OtlpError(
        'OTLP_NOT_A_RECORD',
        `expected the record's events to be JSON data: ${err.message}`,
      );
    throw err;
  }
  const bytes = JsonTraceSerializer.serializeRequest(spans);
  if (bytes === undefined) throw new Error('the OTLP JSON serializer produced nothing');
  return {
    json: new TextDecoder().decode(bytes),
    traceId: spans[0]?.spanContext().traceId ?? '',
    spanCount: spans.length,
    spanEventCount: spans.reduce((n, s) => n + s.events.length, 0),
  };
}

/** The root span: the run, the record's digests and the verdict. */
function rootFacts(view: RecordView, verification: VerifyResult, content: boolean): RootFacts {
  const { run, manifest } = view;
  const startEvent = view.events.find((e) => e.type === 'run' && e.event['phase'] === 'start');
  const endEvent = view.events.find((e) => e.type === 'run' && e.event['phase'] === 'end');
  const start =
    startEvent?.start ?? earliest(view.events) ?? Date.parse(stringOr(run['started_at']) ?? '');
  const end = endEvent?.end ?? endEvent?.start ?? latest(view.events) ?? start;
  const replay = isRecord(manifest['replay']) ? manifest['replay'] : {};
  const name = stringOr(run['name']) ?? stringOr(startEvent?.event['name']);
  const status = stringOr(run['status']) ?? stringOr(endEvent?.event['status']);
  const a: Record<string, string | number | boolean | string[]> = {
    [N.ATTR_GEN_AI_OPERATION_NAME]: N.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
    [N.ATTR_GEN_AI_AGENT_ID]: view.runId,
    ...(name === undefined ? {} : { [N.ATTR_GEN_AI_AGENT_NAME]: name }),
    [N.ATTR_RUNBACK_RUN_ID]: view.runId,
    ...(status === undefined ? {} : { [N.ATTR_RUNBACK_RUN_STATUS]: status }),
    ...(typeof view.record['$schema'] === 'string'
      ? { [N.ATTR_RUNBACK_SCHEMA]: view.record['$schema'] }
      : {}),
  };
  const contentDigest = stringOr(manifest['content_digest']);
  const cassette = stringOr(replay['cassette_digest']);
  const count = numberOr(manifest['event_count']);
  if (contentDigest !== undefined) a[N.ATTR_RUNBACK_CONTENT_DIGEST] = contentDigest;
  if (cassette !== undefined) a[N.ATTR_RUNBACK_CASSETTE_DIGEST] = cassette;
  if (count !== undefined) a[N.ATTR_RUNBACK_EVENT_COUNT] = count;
  a[N.ATTR_RUNBACK_VERDICT] = verification.verdict;
  a[N.ATTR_RUNBACK_INTEGRITY] = verification.integrity;
  a[N.ATTR_RUNBACK_SIGNATURE] = verification.checks.signature;
  if (verification.errors.length > 0)
    a[N.ATTR_RUNBACK_ERRORS] = verification.errors.map((e) => e.code);
  if (verification.signer !== undefined) {
    a[N.ATTR_RUNBACK_SIGNER_ALG] = verification.signer.alg;
    if (verification.signer.key_id !== undefined)
      a[N.ATTR_RUNBACK_SIGNER_KEY_ID] = verification.signer.key_id;
  }
  // The summary in its own member order (a re-sealed record writes it as given); canonical()
  // first, so a value JSON cannot hold is refused as it is in events.
  jsonText(run);
  if (content) a[N.ATTR_RUNBACK_RUN] = JSON.stringify(run);
  if (Number.isNaN(start))
    throw new OtlpError(
      'OTLP_NOT_A_RECORD',
      'expected the record to hold at least one event or run.started_at, got neither',
    );
  const failed = status === 'error' ? (endEvent?.event['error'] ?? run['error']) : undefined;
  return {
    content,
    name:
      name === undefined
        ? N.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT
        : `${N.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${name}`,
    start,
    end: Math.max(end, start),
    attributes: a,
    error:
      status === 'error'
        ? isRecord(failed)
          ? (stringOr(failed['message']) ?? 'run failed')
          : 'run failed'
        : undefined,
  };
}

function earliest(events: readonly EventView[]): number | undefined {
  let min: number | undefined;
  for (const e of events) if (min === undefined || e.start < min) min = e.start;
  return min;
}

function latest(events: readonly EventView[]): number | undefined {
  let max: number | undefined;
  for (const e of events) {
    const t = e.end ?? e.start;
    if (max === undefined || t > max) max = t;
  }
  return max;
}
