// What the viewer shows of a record, computed once in the worker: one row per event, the span
// tree in display order, the oracle entries (docs/spec.md §4) and per-model totals. The chain
// status of each event comes from the verify result, never from a second verifier.
import { oracleEntryOf, seqOrder } from '@runback/replay-digest';
import type { VerifyResult } from '@runback/verify';
import { numberOr, objectOr, preview, stringOr, timeOf, type Json } from './read-members.js';

/** Where an event stands in the event chain (spec §3), as the verify result says. */
export type ChainStatus = 'intact' | 'broken' | 'after-break' | 'not-checked';

export interface EventRow {
  readonly index: number;
  readonly seq: number | null;
  readonly type: string;
  readonly span: string;
  readonly title: string;
  readonly detail: string;
  /** The event's error message, when it records one. */
  readonly error: string | null;
  readonly hash: string;
  readonly chain: ChainStatus;
  readonly ts: string;
}

export interface SpanRow {
  readonly span: string;
  readonly depth: number;
  readonly type: string;
  readonly label: string;
  /** Milliseconds after the run's first timestamp; null when the span has no readable time. */
  readonly start: number | null;
  readonly end: number | null;
  readonly error: boolean;
  /** Indexes of the span's events in the record's `events` array. */
  readonly events: readonly number[];
}

export interface CassetteRow {
  /** Position in the oracle stream (seq order, spec §4.3), from 1. */
  readonly position: number;
  readonly index: number;
  readonly seq: number | null;
  readonly kind: string;
  readonly key: string;
  readonly output: string;
}

export interface ModelTotal {
  readonly model: string;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  readonly latencyMs: number;
  readonly errors: number;
}

export type RowList = 'events' | 'spans' | 'cassette';
export type RowOf<L extends RowList> = L extends 'events'
  ? EventRow
  : L extends 'spans'
    ? SpanRow
    : CassetteRow;

export interface RecordSummary {
  readonly runId: string;
  readonly name: string;
  readonly status: string;
  readonly startedAt: string;
  readonly endedAt: string;
  /** Milliseconds from the first to the last timestamp of the events. */
  readonly durationMs: number;
  readonly counts: { readonly [L in RowList]: number };
  readonly models: readonly ModelTotal[];
  /** The first event an error of the verify result names, if any. */
  readonly firstBadEvent: number | null;
}

export interface RecordIndex {
  readonly summary: RecordSummary;
  readonly events: readonly unknown[];
  readonly rows: { readonly [L in RowList]: readonly RowOf<L>[] };
}

/** Indexes a parsed record for display. Never throws on a malformed record. */
export function indexRecord(record: unknown, result: VerifyResult): RecordIndex {
  const root = objectOr(record) ?? {};
  const events = Array.isArray(root['events']) ? (root['events'] as unknown[]) : [];
  const run = objectOr(root['run']) ?? {};
  const manifest = objectOr(root['manifest']) ?? {};
  const chainOf = chainStatusOf(result);
  const eventRows = events.map((e, i) => eventRow(e, i, chainOf(i)));
  const { spans, t0, t1 } = spanRows(events);
  const firstBad = result.errors.find((e) => e.event_index !== undefined)?.event_index ?? null;
  const cassette = cassetteRows(events);
  return {
    events,
    rows: { events: eventRows, spans, cassette },
    summary: {
      runId: stringOr(run['run_id'], stringOr(manifest['run_id'])),
      name: stringOr(run['name']),
      status: stringOr(run['status']),
      startedAt: stringOr(run['started_at']),
      endedAt: stringOr(run['ended_at']),
      durationMs: t0 === null || t1 === null ? 0 : t1 - t0,
      counts: { events: eventRows.length, spans: spans.length, cassette: cassette.length },
      models: modelTotals(events),
      firstBadEvent: firstBad,
    },
  };
}

function chainStatusOf(result: VerifyResult): (index: number) => ChainStatus {
  if (result.checks.chain) return () => 'intact';
  const bad = result.errors.find((e) => e.check === 'chain' && e.event_index !== undefined);
  if (bad?.event_index === undefined) return () => 'not-checked';
  const at = bad.event_index;
  return (i) => (i < at ? 'intact' : i === at ? 'broken' : 'after-break');
}

function eventRow(value: unknown, index: number, chain: ChainStatus): EventRow {
  const e = objectOr(value) ?? {};
  const type = stringOr(e['type'], '(no type)');
  const err = objectOr(e['error']);
  const { title, detail } = describe(type, e);
  return {
    index,
    seq: numberOr(e['seq']),
    type,
    span: stringOr(e['span_id']),
    title,
    detail,
    error: err === null ? null : stringOr(err['message'], preview(err, 200)),
    hash: stringOr(e['_hash']),
    chain,
    ts: stringOr(e['ts_start']),
  };
}

function describe(type: string, e: Json): { title: string; detail: string } {
  switch (type) {
    case 'run': {
      const phase = stringOr(e['phase']);
      return phase === 'end'
        ? { title: `run end: ${stringOr(e['status'], '?')}`, detail: preview(e['output']) }
        : { title: `run start: ${stringOr(e['name'])}`, detail: preview(e['input']) };
    }
    case 'llm': {
      const model = objectOr(e['model']);
      const response = objectOr(e['response']);
      const calls = Array.isArray(response?.['tool_calls']) ? response['tool_calls'].length : 0;
      const text = preview(response?.['text']);
      return {
        title: `llm ${stringOr(model?.['model_id'], '?')}`,
        detail: calls > 0 ? `${text} [${calls} tool call${calls === 1 ? '' : 's'}]` : text,
      };
    }
    case 'tool':
      return {
        title: `tool ${stringOr(e['tool_name'], '?')}(${preview(e['input'], 60)})`,
        detail: preview(e['output']),
      };
    case 'env':
      return {
        title: `env ${stringOr(e['kind'], '?')}`,
        detail: `${preview(e['key'], 40)} → ${preview(e['output'], 80)}`,
      };
    case 'reasoning':
      return { title: `reasoning ${stringOr(e['label'])}`.trim(), detail: preview(e['text']) };
    default:
      return { title: type, detail: preview(e, 100) };
  }
}

interface SpanNode {
  span: string;
  parent: string | null;
  type: string;
  label: string;
  start: number | null;
  end: number | null;
  error: boolean;
  events: number[];
  firstSeq: number;
  children: SpanNode[];
}

function spanRows(events: readonly unknown[]): {
  spans: SpanRow[];
  t0: number | null;
  t1: number | null;
} {
  const nodes = new Map<string, SpanNode>();
  let t0: number | null = null;
  let t1: number | null = null;
  events.forEach((value, index) => {
    const e = objectOr(value) ?? {};
    const span = stringOr(e['span_id'], `#${index}`);
    const start = timeOf(e['ts_start']);
    const end = timeOf(e['ts_end']) ?? start;
    if (start !== null) t0 = t0 === null ? start : Math.min(t0, start);
    if (end !== null) t1 = t1 === null ? end : Math.max(t1, end);
    let node = nodes.get(span);
    if (node === undefined) {
      const type = stringOr(e['type'], '?');
      node = {
        span,
        parent: typeof e['parent_span_id'] === 'string' ? e['parent_span_id'] : null,
        type,
        label: describe(type, e).title,
        start,
        end,
        error: false,
        events: [],
        firstSeq: numberOr(e['seq']) ?? index,
        children: [],
      };
      nodes.set(span, node);
    } else {
      if (start !== null) node.start = node.start === null ? start : Math.min(node.start, start);
      if (end !== null) node.end = node.end === null ? end : Math.max(node.end, end);
      if (node.type === 'run' && stringOr(e['name']) !== '') {
        node.label = `run ${stringOr(e['name'])}`;
      }
    }
    if (node.type === 'run') node.label = `run ${stringOr(e['name'], node.span)}`;
    if (objectOr(e['error']) !== null) node.error = true;
    node.events.push(index);
  });
  const roots: SpanNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parent === null ? undefined : nodes.get(node.parent);
    if (parent === undefined || parent === node) roots.push(node);
    else parent.children.push(node);
  }
  const byTime = (a: SpanNode, b: SpanNode) =>
    (a.start ?? Infinity) - (b.start ?? Infinity) || a.firstSeq - b.firstSeq;
  const out: SpanRow[] = [];
  const seen = new Set<SpanNode>();
  // Iterative depth-first walk: a deep or cyclic parent chain must not overflow the stack.
  const stack: { node: SpanNode; depth: number }[] = roots
    .sort(byTime)
    .reverse()
    .map((node) => ({ node, depth: 0 }));
  const emit = (node: SpanNode, depth: number) => {
    const base = t0 ?? 0;
    out.push({
      span: node.span,
      depth,
      type: node.type,
      label: node.label,
      start: node.start === null ? null : node.start - base,
      end: node.end === null ? null : node.end - base,
      error: node.error,
      events: node.events,
    });
  };
  for (;;) {
    const top = stack.pop();
    if (top === undefined) break;
    if (seen.has(top.node)) continue;
    seen.add(top.node);
    emit(top.node, top.depth);
    const kids = top.node.children.sort(byTime);
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ node: kids[k]!, depth: top.depth + 1 });
  }
  // Spans whose parent chain is a cycle never reach a root: show them at the top level.
  for (const node of nodes.values()) if (!seen.has(node)) emit(node, 0);
  return { spans: out, t0, t1 };
}

function cassetteRows(events: readonly unknown[]): CassetteRow[] {
  const rows: CassetteRow[] = [];
  let order: number[];
  try {
    order = seqOrder(events);
  } catch {
    order = events.map((_, i) => i);
  }
  for (const index of order) {
    const event = events[index];
    let entry: ReturnType<typeof oracleEntryOf>;
    try {
      entry = oracleEntryOf(event);
    } catch (err) {
      // A malformed oracle event has no key (spec §4.1); show it, the cassette check fails on it.
      const code = stringOr((err as { code?: unknown }).code, 'ORACLE_MALFORMED_EVENT');
      entry = {
        kind: stringOr(objectOr(event)?.['type'], '?'),
        key: `(no key: ${code})`,
        output: null,
      };
    }
    if (entry === null) continue;
    rows.push({
      position: rows.length + 1,
      index,
      seq: numberOr(objectOr(event)?.['seq']),
      kind: entry.kind,
      key: entry.key,
      output: preview(entry.output, 160),
    });
  }
  return rows;
}

function modelTotals(events: readonly unknown[]): ModelTotal[] {
  const totals = new Map<string, ModelTotal>();
  for (const value of events) {
    const e = objectOr(value);
    if (e === null || e['type'] !== 'llm') continue;
    const model = objectOr(e['model']);
    const name = [stringOr(model?.['provider']), stringOr(model?.['model_id'], '?')]
      .filter((s) => s !== '')
      .join('/');
    const usage = objectOr(e['usage']);
    const t = totals.get(name) ?? {
      model: name,
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      latencyMs: 0,
      errors: 0,
    };
    const input = numberOr(usage?.['input_tokens']) ?? 0;
    const output = numberOr(usage?.['output_tokens']) ?? 0;
    totals.set(name, {
      model: name,
      calls: t.calls + 1,
      inputTokens: t.inputTokens + input,
      outputTokens: t.outputTokens + output,
      totalTokens: t.totalTokens + (numberOr(usage?.['total_tokens']) ?? input + output),
      latencyMs: t.latencyMs + (numberOr(e['latency_ms']) ?? 0),
      errors: t.errors + (objectOr(e['error']) === null ? 0 : 1),
    });
  }
  return [...totals.values()].sort((a, b) => a.model.localeCompare(b.model));
}
