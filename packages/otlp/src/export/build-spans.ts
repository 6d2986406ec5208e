// The record's span tree, built by the OpenTelemetry SDK's own tracer: one root span for the
// run, one span per llm and tool event (parented as the record's span_id / parent_span_id
// say), and every other event (reasoning, env, unknown types) as a span event on the span it
// belongs to; the run's own start and end events are span events of the root. Ids come from the record (ids.ts), times from the events.
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Attributes,
  type Context,
} from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  type IdGenerator,
  type ReadableSpan,
  type Span,
} from '@opentelemetry/sdk-trace-base';
import { keptId, spanIdFor, traceIdFor } from '../ids.js';
import * as N from '../names.js';
import { baseAttributes, errorMessage, llmAttributes, toolAttributes } from './event-attributes.js';
import type { EventView, RecordView } from './record-view.js';

/** What the root span says besides the run: digests and verdict, computed by the caller. */
export interface RootFacts {
  /** Whether prompts, answers and tool data are written (ExportOptions.content). */
  readonly content: boolean;
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly attributes: Attributes;
  readonly error: string | undefined;
}

/** A span to be: the record event it stands for and where it hangs. */
interface Planned {
  readonly view: EventView;
  readonly spanId: string;
  readonly parent: string;
}

/** Ids handed to the SDK in the order it asks for them (one per startSpan). */
class QueuedIds implements IdGenerator {
  traceId = '';
  spanId = '';
  generateTraceId(): string {
    return this.traceId;
  }
  generateSpanId(): string {
    return this.spanId;
  }
}

/** The spans of `view` in export order: the root first, then llm/tool spans in seq order. */
export function buildSpans(
  view: RecordView,
  root: RootFacts,
  resource: Resource,
  scopeVersion: string,
): ReadableSpan[] {
  const ids = new QueuedIds();
  const provider = new BasicTracerProvider({
    resource,
    idGenerator: ids,
    // No limit may silently drop what the record holds.
    spanLimits: {
      attributeCountLimit: Number.MAX_SAFE_INTEGER,
      attributeValueLengthLimit: Number.MAX_SAFE_INTEGER,
      eventCountLimit: Number.MAX_SAFE_INTEGER,
      attributePerEventCountLimit: Number.MAX_SAFE_INTEGER,
      linkCountLimit: Number.MAX_SAFE_INTEGER,
      attributePerLinkCountLimit: Number.MAX_SAFE_INTEGER,
    },
  });
  const tracer = provider.getTracer(N.SCOPE_NAME, scopeVersion);
  const runEvent = view.events.find((e) => e.type === 'run');
  const traceId = (runEvent && keptId(runEvent.event, 'trace_id')) ?? traceIdFor(view.runId);
  const runSpanId = runEvent?.spanId;
  const rootId =
    (runEvent && keptId(runEvent.event, 'span_id')) ?? spanIdFor(view.runId, runSpanId ?? '', 0);
  const plan = planSpans(view, runSpanId, rootId);

  ids.traceId = traceId;
  ids.spanId = rootId;
  const rootSpan = tracer.startSpan(
    root.name,
    { kind: SpanKind.INTERNAL, startTime: root.start, attributes: root.attributes },
    ROOT_CONTEXT,
  );
  const spans = new Map<string, Span>([[rootId, rootSpan as Span]]);
  for (const p of plan.spans) {
    const built =
      p.view.type === 'llm'
        ? llmAttributes(p.view, root.content)
        : toolAttributes(p.view, root.content);
    ids.spanId = p.spanId;
    const span = tracer.startSpan(
      built.name,
      {
        kind: p.view.type === 'llm' ? SpanKind.CLIENT : SpanKind.INTERNAL,
        startTime: p.view.start,
        attributes: built.attributes,
      },
      contextOf(traceId, p.parent),
    );
    spans.set(p.spanId, span as Span);
  }
  for (const instant of plan.instants) {
    const owner = spans.get(instant.parent) ?? rootSpan;
    owner.addEvent(
      `${N.EVENT_NAME_PREFIX}${instant.view.type}`,
      baseAttributes(instant.view, root.content),
      instant.view.end ?? instant.view.start,
    );
  }
  for (const p of plan.spans) {
    const span = spans.get(p.spanId) as Span;
    const message = errorMessage(p.view.event['error']);
    if (message !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message });
    span.end(p.view.end ?? p.view.start);
  }
  if (root.error !== undefined)
    rootSpan.setStatus({ code: SpanStatusCode.ERROR, message: root.error });
  rootSpan.end(root.end);
  return [...spans.values()] as ReadableSpan[];
}

/** Which events become spans, their ids, and the span each hangs under. */
function planSpans(
  view: RecordView,
  runSpanId: string | undefined,
  rootId: string,
): { spans: Planned[]; instants: Planned[] } {
  const seen = new Map<string, number>();
  const byRecordSpan = new Map<string, EventView>();
  const otelIdOf = new Map<EventView, string>();
  const used = new Set<string>([rootId]);
  for (const e of view.events) {
    if (e.type !== 'llm' && e.type !== 'tool') continue;
    if (!byRecordSpan.has(e.spanId)) byRecordSpan.set(e.spanId, e);
    const n = seen.get(e.spanId) ?? 0;
    seen.set(e.spanId, n + 1);
    const kept = keptId(e.event, 'span_id');
    let id = kept !== undefined && !used.has(kept) ? kept : spanIdFor(view.runId, e.spanId, n);
    for (let k = n + 1; used.has(id); k++) id = spanIdFor(view.runId, e.spanId, k);
    used.add(id);
    otelIdOf.set(e, id);
  }
  // Other events can be parents too (a tool called under a reasoning step): after the spans.
  for (const e of view.events) {
    if (e.type !== 'run' && !byRecordSpan.has(e.spanId)) byRecordSpan.set(e.spanId, e);
  }
  /** The nearest llm/tool ancestor's span id, else the root. */
  const parentOf = (e: EventView): string => {
    let parent = e.parentSpanId;
    const visited = new Set<string>();
    while (parent !== null && parent !== runSpanId && !visited.has(parent)) {
      visited.add(parent);
      const owner = byRecordSpan.get(parent);
      if (owner === undefined) break;
      const id = otelIdOf.get(owner);
      if (id !== undefined && owner !== e) return id;
      parent = owner.parentSpanId;
    }
    return rootId;
  };
  const spans: Planned[] = [];
  const instants: Planned[] = [];
  for (const e of view.events) {
    if (e.type === 'run') {
      // The run's start and end events ride on the root span, which stands for the run.
      instants.push({ view: e, spanId: '', parent: rootId });
      continue;
    }
    const spanId = otelIdOf.get(e);
    if (spanId !== undefined) spans.push({ view: e, spanId, parent: parentOf(e) });
    else
      instants.push({
        view: e,
        spanId: '',
        parent: instantOwner(e, byRecordSpan, otelIdOf, parentOf),
      });
  }
  return { spans, instants };
}

/** An instant event sits on the llm/tool span that shares its span id, else under its parent. */
function instantOwner(
  e: EventView,
  byRecordSpan: ReadonlyMap<string, EventView>,
  otelIdOf: ReadonlyMap<EventView, string>,
  parentOf: (e: EventView) => string,
): string {
  const same = byRecordSpan.get(e.spanId);
  const own = same === undefined ? undefined : otelIdOf.get(same);
  return own ?? parentOf(e);
}

function contextOf(traceId: string, spanId: string): Context {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: TraceFlags.SAMPLED,
    isRemote: false,
  });
}
