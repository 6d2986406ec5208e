// What changed between two runs, semantically (`runback diff`). The steps are
// aligned (align.ts) so an inserted or removed step reports once; for each changed step, its
// input and output differences are JSON Pointer operations; the run's own input, output, status
// and error are compared too. Token and latency figures per model are reported as deltas, not
// as differences.
import { diffJson, type JsonChange } from './json-diff.js';
import { alignSteps } from './align.js';
import { stepsOf, withoutStack, type Step } from './steps.js';

/** A step that differs between the runs. */
export interface StepChange {
  readonly change: 'changed' | 'added' | 'removed';
  readonly type: string;
  readonly name: string;
  /** The step's seq in A and in B (absent on the side it is missing from). */
  readonly a?: { readonly seq: number; readonly index: number };
  readonly b?: { readonly seq: number; readonly index: number };
  /** For a changed step: the input and output differences, A to B. */
  readonly input: readonly JsonChange[];
  readonly output: readonly JsonChange[];
  /** For an added or removed step: its input and output. */
  readonly step?: { readonly input: unknown; readonly output: unknown };
}

/** Calls, tokens and latency of one model in each run. */
export interface ModelFigures {
  readonly model: string;
  readonly a: ModelTotals;
  readonly b: ModelTotals;
}

export interface ModelTotals {
  readonly calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly total_tokens: number;
  readonly latency_ms: number;
}

/** The semantic difference of two records. */
export interface RecordDiff {
  /** true when nothing semantic differs (token and latency deltas do not count). */
  readonly equal: boolean;
  readonly run: {
    readonly status: { readonly a: unknown; readonly b: unknown } | null;
    readonly input: readonly JsonChange[];
    readonly output: readonly JsonChange[];
    readonly error: readonly JsonChange[];
  };
  readonly steps: readonly StepChange[];
  readonly counts: {
    readonly same: number;
    readonly changed: number;
    readonly added: number;
    readonly removed: number;
  };
  readonly models: readonly ModelFigures[];
}

interface RecordLike {
  readonly run?: unknown;
  readonly events?: unknown;
}

/** Compares record `a` with record `b` (parsed JSON). */
export function diffRecords(a: RecordLike, b: RecordLike): RecordDiff {
  const eventsA = Array.isArray(a.events) ? a.events : [];
  const eventsB = Array.isArray(b.events) ? b.events : [];
  const rows = alignSteps(stepsOf(eventsA), stepsOf(eventsB));
  const steps: StepChange[] = [];
  const counts = { same: 0, changed: 0, added: 0, removed: 0 };
  for (const row of rows) {
    if (row.kind === 'added' || row.kind === 'removed') {
      counts[row.kind]++;
      const step = row.kind === 'added' ? row.b : row.a;
      steps.push({
        change: row.kind,
        type: step.type,
        name: step.name,
        [row.kind === 'added' ? 'b' : 'a']: { seq: step.seq, index: step.index },
        input: [],
        output: [],
        step: { input: step.input, output: step.output },
      });
      continue;
    }
    const input = diffJson(row.a.input, row.b.input, { ignore: row.a.volatile });
    const output = diffJson(row.a.output, row.b.output, { ignore: row.a.volatile });
    if (row.kind === 'same' && input.length === 0 && output.length === 0) {
      counts.same++;
      continue;
    }
    counts.changed++;
    steps.push({
      change: 'changed',
      type: row.a.type,
      name: row.a.name,
      a: { seq: row.a.seq, index: row.a.index },
      b: { seq: row.b.seq, index: row.b.index },
      input,
      output,
    });
  }

  const endA = runEnd(eventsA);
  const endB = runEnd(eventsB);
  const startA = runStart(eventsA);
  const startB = runStart(eventsB);
  const statusA = endA?.['status'] ?? 'running';
  const statusB = endB?.['status'] ?? 'running';
  const run = {
    status: statusA === statusB ? null : { a: statusA, b: statusB },
    input: diffJson(startA?.['input'] ?? null, startB?.['input'] ?? null),
    output: diffJson(endA?.['output'] ?? null, endB?.['output'] ?? null),
    error: diffJson(withoutStack(endA?.['error']), withoutStack(endB?.['error'])),
  };
  const equal =
    steps.length === 0 &&
    run.status === null &&
    run.input.length === 0 &&
    run.output.length === 0 &&
    run.error.length === 0;
  return {
    equal,
    run,
    steps,
    counts,
    models: modelFigures(
      rows.flatMap((r) => ('a' in r ? [r.a] : [])),
      rows.flatMap((r) => ('b' in r ? [r.b] : [])),
    ),
  };
}

type Event = Record<string, unknown>;

function runEvent(events: readonly unknown[], phase: string): Event | undefined {
  return events.find(
    (e): e is Event =>
      typeof e === 'object' &&
      e !== null &&
      (e as Event)['type'] === 'run' &&
      (e as Event)['phase'] === phase,
  );
}
const runStart = (events: readonly unknown[]) => runEvent(events, 'start');
const runEnd = (events: readonly unknown[]) => runEvent(events, 'end');

function modelFigures(a: readonly Step[], b: readonly Step[]): ModelFigures[] {
  const totals = (steps: readonly Step[]) => {
    const byModel = new Map<string, ModelTotals>();
    for (const step of steps) {
      if (step.type !== 'llm') continue;
      const t = byModel.get(step.name) ?? {
        calls: 0,
        input_tokens: 0,
        output_tokens: 0,
        total_tokens: 0,
        latency_ms: 0,
      };
      byModel.set(step.name, {
        calls: t.calls + 1,
        input_tokens: t.input_tokens + (step.usage?.input ?? 0),
        output_tokens: t.output_tokens + (step.usage?.output ?? 0),
        total_tokens: t.total_tokens + (step.usage?.total ?? 0),
        latency_ms: Math.round((t.latency_ms + (step.latencyMs ?? 0)) * 1000) / 1000,
      });
    }
    return byModel;
  };
  const ta = totals(a);
  const tb = totals(b);
  const zero: ModelTotals = {
    calls: 0,
    input_tokens: 0,
    output_tokens: 0,
    total_tokens: 0,
    latency_ms: 0,
  };
  return [...new Set([...ta.keys(), ...tb.keys()])].sort().map((model) => ({
    model,
    a: ta.get(model) ?? zero,
    b: tb.get(model) ?? zero,
  }));
}
