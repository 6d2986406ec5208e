// OTLP/JSON traces → the run summary and events of a runback record, ready to be sealed and
// signed (@runback/sign's sealRecord). One trace becomes one record: its GenAI spans become
// events, its other spans (HTTP, database, framework internals) are left out, and a span's
// parent is its nearest GenAI ancestor. A trace that runback itself exported is read back
// exactly (runback-events.ts).
import { OtlpError } from '../errors.js';
import * as N from '../names.js';
import { agentOutputOf, contentAttributes, eventOfSpan, iso, operationOf } from './genai-events.js';
import { inputMessagesOf } from './genai-content.js';
import { readOtlpSpans, type OtlpSpan, type ReadLimits } from './otlp-spans.js';
import { exportDifferences } from './export-consistency.js';
import { isRunbackExport, runbackContent } from './runback-events.js';

/** Options of {@link importOtlp}. */
export interface ImportOptions extends ReadLimits {
  /** The trace to import when the input holds GenAI spans of several (32 hex digits). */
  readonly traceId?: string;
  /** The record's run id; default `otlp_` + the trace id. Ignored for a runback export. */
  readonly runId?: string;
}

/** What {@link importOtlp} read: an unsealed record and facts about the conversion. */
export interface OtlpImport {
  /** The run summary. */
  readonly run: Record<string, unknown>;
  /** The events in recording order (seq ascending). */
  readonly events: Record<string, unknown>[];
  readonly traceId: string;
  /** "runback": the exact events of a runback export; "genai": read from GenAI attributes. */
  readonly source: 'runback' | 'genai';
  /** GenAI spans read. */
  readonly genaiSpanCount: number;
  /** Spans of the trace without GenAI attributes, left out. */
  readonly ignoredSpanCount: number;
  /**
   * For a runback export: where a span's GenAI attributes differ from what its runback.event
   * exports as (an edited export; the record is built from the events). Empty otherwise.
   */
  readonly differences: readonly string[];
  /** What a runback export's root span claimed (to compare with the re-sealed record). */
  readonly exported?: {
    readonly contentDigest?: string;
    readonly cassetteDigest?: string;
    readonly verdict?: string;
  };
}

/**
 * Reads OTLP/JSON (bytes or text) and builds the unsealed record of one trace. Throws an
 * OtlpError with a stable code for input it cannot read (see OtlpErrorCode).
 */
export function importOtlp(input: Uint8Array | string, options: ImportOptions = {}): OtlpImport {
  const spans = readOtlpSpans(input, options);
  const traceId = chooseTrace(spans, options.traceId);
  const inTrace = spans.filter((s) => s.traceId === traceId);
  const byId = new Map<string, OtlpSpan>();
  for (const span of inTrace) {
    if (byId.has(span.spanId))
      throw new OtlpError(
        'OTLP_DUPLICATE_SPAN',
        `expected span ids to be unique in trace ${traceId}, got ${span.spanId} twice`,
      );
    byId.set(span.spanId, span);
  }
  const genai = inTrace.filter((s) => operationOf(s) !== undefined);
  const ignoredSpanCount = inTrace.length - genai.length;
  const runbackRoot = inTrace.find(
    (s) =>
      s.attributes.has(N.ATTR_RUNBACK_RUN_ID) &&
      (s.parentSpanId === null || !byId.has(s.parentSpanId)),
  );
  if (isRunbackExport(runbackRoot, genai) && runbackRoot !== undefined) {
    const content = runbackContent(runbackRoot, genai);
    const a = runbackRoot.attributes;
    const str = (k: string): string | undefined =>
      typeof a.get(k) === 'string' ? (a.get(k) as string) : undefined;
    const contentDigest = str(N.ATTR_RUNBACK_CONTENT_DIGEST);
    const cassetteDigest = str(N.ATTR_RUNBACK_CASSETTE_DIGEST);
    const verdict = str(N.ATTR_RUNBACK_VERDICT);
    const runId =
      typeof a.get(N.ATTR_RUNBACK_RUN_ID) === 'string'
        ? (a.get(N.ATTR_RUNBACK_RUN_ID) as string)
        : '';
    return {
      ...content,
      differences: exportDifferences(runId, content.events, genai),
      traceId,
      source: 'runback',
      genaiSpanCount: genai.length,
      ignoredSpanCount,
      exported: {
        ...(contentDigest === undefined ? {} : { contentDigest }),
        ...(cassetteDigest === undefined ? {} : { cassetteDigest }),
        ...(verdict === undefined ? {} : { verdict }),
      },
    };
  }
  return {
    ...fromGenAi(traceId, genai, byId, options.runId),
    differences: [],
    traceId,
    source: 'genai',
    genaiSpanCount: genai.length,
    ignoredSpanCount,
  };
}

/** The one trace holding GenAI spans, or the chosen one. */
function chooseTrace(spans: readonly OtlpSpan[], wanted: string | undefined): string {
  const traces = [
    ...new Set(spans.filter((s) => operationOf(s) !== undefined).map((s) => s.traceId)),
  ];
  if (wanted !== undefined) {
    const id = wanted.toLowerCase();
    if (!traces.includes(id)) {
      throw new OtlpError(
        'OTLP_TRACE_NOT_FOUND',
        `expected trace ${wanted} to hold GenAI spans, got ${traces.length === 0 ? 'no GenAI spans at all' : `GenAI spans in ${traces.join(', ')}`}`,
      );
    }
    return id;
  }
  if (traces.length === 0) {
    throw new OtlpError(
      'OTLP_NO_GENAI_SPANS',
      `expected spans with GenAI attributes (gen_ai.operation.name), got ${spans.length} span${spans.length === 1 ? '' : 's'} without them`,
    );
  }
  if (traces.length > 1) {
    throw new OtlpError(
      'OTLP_MULTIPLE_TRACES',
      `expected GenAI spans of one trace, got ${traces.length}: ${traces.join(', ')} (choose one)`,
    );
  }
  return traces[0] as string;
}

/** The record of a trace from another tool. */
function fromGenAi(
  traceId: string,
  genai: readonly OtlpSpan[],
  byId: ReadonlyMap<string, OtlpSpan>,
  runIdOption: string | undefined,
): { run: Record<string, unknown>; events: Record<string, unknown>[] } {
  const isGenai = new Set(genai);
  /** The nearest GenAI ancestor, through spans of any kind. */
  const genaiParent = (span: OtlpSpan): OtlpSpan | undefined => {
    const visited = new Set<string>([span.spanId]);
    let parent = span.parentSpanId;
    while (parent !== null && !visited.has(parent)) {
      visited.add(parent);
      const p = byId.get(parent);
      if (p === undefined) return undefined;
      if (isGenai.has(p)) return p;
      parent = p.parentSpanId;
    }
    return undefined;
  };
  const tops = genai.filter((s) => genaiParent(s) === undefined);
  const agent =
    tops.length === 1 && operationOf(tops[0] as OtlpSpan) === 'invoke_agent' ? tops[0] : undefined;
  const runId = runIdOption ?? `otlp_${traceId}`;
  const runSpanId = agent?.spanId ?? 'run';
  const members = agent === undefined ? genai : genai.filter((s) => s !== agent);
  const start = agent?.start ?? genai.reduce((m, s) => Math.min(m, s.start), Infinity);
  const end = agent?.end ?? genai.reduce((m, s) => Math.max(m, s.end), -Infinity);
  const name = runName(agent, genai, byId);
  const failed = agent !== undefined ? agent.statusCode === 2 : false;
  const error =
    failed && agent !== undefined
      ? {
          name:
            typeof agent.attributes.get('error.type') === 'string'
              ? agent.attributes.get('error.type')
              : 'Error',
          message: agent.statusMessage,
        }
      : null;
  const status = failed ? 'error' : 'success';
  const input = agent === undefined ? null : inputOf(agent);
  const output = agent === undefined ? null : agentOutputOf(agent);
  const ordered = [...members].sort((a, b) => a.start - b.start || a.order - b.order);
  const events: Record<string, unknown>[] = [];
  events.push({
    schema_version: 1,
    run_id: runId,
    span_id: runSpanId,
    parent_span_id: null,
    seq: 0,
    ts_start: iso(start),
    ts_end: iso(start),
    type: 'run',
    phase: 'start',
    name,
    status: 'running',
    input,
    metadata: {
      otel: {
        trace_id: traceId,
        ...(agent === undefined ? {} : { span_id: agent.spanId, name: agent.name }),
      },
    },
  });
  ordered.forEach((span, i) => {
    const parent = genaiParent(span);
    events.push(
      eventOfSpan(span, operationOf(span) as string, {
        run_id: runId,
        span_id: span.spanId,
        parent_span_id: parent === undefined || parent === agent ? runSpanId : parent.spanId,
        seq: i + 1,
      }),
    );
  });
  events.push({
    schema_version: 1,
    run_id: runId,
    span_id: runSpanId,
    parent_span_id: null,
    seq: ordered.length + 1,
    ts_start: iso(start),
    ts_end: iso(Math.max(start, end)),
    type: 'run',
    phase: 'end',
    name,
    status,
    output,
    error,
  });
  const run: Record<string, unknown> = {
    run_id: runId,
    name,
    status,
    started_at: iso(start),
    ended_at: iso(Math.max(start, end)),
    output,
    ...(error === null ? {} : { error }),
  };
  return { run, events };
}

/** The agent's name, else the trace root's service name, else the first span's name. */
function runName(
  agent: OtlpSpan | undefined,
  genai: readonly OtlpSpan[],
  byId: ReadonlyMap<string, OtlpSpan>,
): string {
  const agentName = agent?.attributes.get('gen_ai.agent.name');
  if (typeof agentName === 'string' && agentName !== '') return agentName;
  if (agent !== undefined && agent.name !== '') return agent.name;
  const first = genai[0];
  let root = first;
  const visited = new Set<string>();
  while (
    root?.parentSpanId != null &&
    byId.has(root.parentSpanId) &&
    !visited.has(root.parentSpanId)
  ) {
    visited.add(root.parentSpanId);
    root = byId.get(root.parentSpanId);
  }
  const service = root?.resource.get('service.name');
  if (typeof service === 'string' && service !== '') return service;
  return root?.name !== undefined && root.name !== '' ? root.name : 'otlp-import';
}

function inputOf(agent: OtlpSpan): unknown {
  const messages = inputMessagesOf(contentAttributes(agent));
  return messages.length === 0 ? null : messages;
}
