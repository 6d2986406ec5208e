// The facts of a record a reviewer wants first, as data: who ran, how it ended, what it
// called, what failed, and whether the record holds up. Pure: record (and its verification
// result) in, summary out. It reads defensively — a malformed record still summarizes, and
// the chain section says what is wrong with it.
import type { VerifyResult } from '@runback/verify';
import { runFacts, type ProgramFacts } from './facts.js';
import { asObject, str, type Json } from './read-json.js';
import { toolCallsOf, type ToolCall } from './tool-calls.js';

export type { ProgramFacts } from './facts.js';
export type { ToolCall } from './tool-calls.js';

/** Token use summed over a set of llm calls. Missing counts add nothing. */
export interface TokenTotals {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly total_tokens: number;
}

export interface ModelUsage extends TokenTotals {
  /** `provider/model_id`. */
  readonly model: string;
  readonly calls: number;
  readonly errors: number;
}

export interface ToolUsage {
  readonly name: string;
  readonly calls: number;
  readonly errors: number;
}

export interface EventError {
  readonly event_index: number;
  readonly seq: number | null;
  readonly type: string;
  /** The tool name, `provider/model_id`, env kind or run name the event is about. */
  readonly subject: string | null;
  readonly name: string | null;
  readonly message: string;
}

export interface ChainStatus {
  readonly verdict: VerifyResult['verdict'];
  readonly integrity: boolean;
  readonly checks: VerifyResult['checks'];
  /** The integrity checks that failed, in pipeline order (plus `signature` when invalid or revoked). */
  readonly failed: readonly string[];
  readonly errors: VerifyResult['errors'];
  readonly signer: { readonly alg: string; readonly key_id: string | null } | null;
}

/** Everything `runback inspect` shows. */
export interface RecordSummary {
  readonly schema: string | null;
  readonly run: {
    readonly name: string | null;
    readonly run_id: string | null;
    readonly status: string | null;
    readonly started_at: string | null;
    readonly ended_at: string | null;
    readonly duration_ms: number | null;
    /** What the run was given (`run.input`, else the run start event's). */
    readonly input: unknown;
    /** How it ended: its final output (`run.output`, else the run end event's) or its error. */
    readonly output: unknown;
    readonly error: unknown;
  };
  /** A program recorded by `runback record` (its command line, exit status and output). */
  readonly program: ProgramFacts | null;
  /** The text of the model's last answer. */
  readonly answer: string | null;
  /** Every tool call in order, with its input and its output or error. */
  readonly tool_calls: readonly ToolCall[];
  readonly generated_at: string | null;
  readonly event_count: number;
  /** Event count per `type`, most frequent first. */
  readonly events_by_type: Readonly<Record<string, number>>;
  readonly llm: TokenTotals & { readonly calls: number; readonly models: readonly ModelUsage[] };
  readonly tools: readonly ToolUsage[];
  /** env reads per `kind`. */
  readonly env: Readonly<Record<string, number>>;
  /** Events whose `error` is set (not null). */
  readonly errors: readonly EventError[];
  readonly chain: ChainStatus;
}

/** Summarizes a parsed record; `verification` is verifyJson's result for the same bytes. */
export function summarizeRecord(record: unknown, verification: VerifyResult): RecordSummary {
  const root = asObject(record) ?? {};
  const run = asObject(root['run']) ?? {};
  const manifest = asObject(root['manifest']) ?? {};
  const events = (Array.isArray(root['events']) ? root['events'] : []).map(
    (e: unknown) => asObject(e) ?? {},
  );

  const start = events.find((e) => e['type'] === 'run' && e['phase'] === 'start');
  const end = events.find((e) => e['type'] === 'run' && e['phase'] === 'end');
  const startedAt = str(run['started_at']) ?? str(start?.['ts_start']) ?? earliest(events);
  const endedAt = str(run['ended_at']) ?? str(end?.['ts_end']) ?? null;
  const facts = runFacts(run, start, end, events);

  const byType = new Map<string, number>();
  const models = new Map<
    string,
    { calls: number; errors: number; input: number; output: number; total: number }
  >();
  const tools = new Map<string, { calls: number; errors: number }>();
  const env = new Map<string, number>();
  const errors: EventError[] = [];

  events.forEach((event, index) => {
    const type = str(event['type']) ?? '(no type)';
    bump(byType, type);
    const failed = event['error'] !== undefined && event['error'] !== null;
    let subject: string | null = null;
    if (type === 'llm') {
      subject = modelName(event['model']);
      const m = models.get(subject) ?? { calls: 0, errors: 0, input: 0, output: 0, total: 0 };
      const usage = asObject(event['usage']) ?? {};
      const input = count(usage['input_tokens']);
      const output = count(usage['output_tokens']);
      m.calls++;
      if (failed) m.errors++;
      m.input += input;
      m.output += output;
      m.total +=
        usage['total_tokens'] === undefined ? input + output : count(usage['total_tokens']);
      models.set(subject, m);
    } else if (type === 'tool') {
      subject = str(event['tool_name']) ?? '(unnamed)';
      const t = tools.get(subject) ?? { calls: 0, errors: 0 };
      t.calls++;
      if (failed) t.errors++;
      tools.set(subject, t);
    } else if (type === 'env') {
      subject = str(event['kind']) ?? '(no kind)';
      bump(env, subject);
    } else if (type === 'run') {
      subject = str(event['name']);
    }
    if (failed) errors.push(errorOf(event, index, type, subject));
  });

  const modelList = [...models]
    .map(([model, m]) => ({
      model,
      calls: m.calls,
      errors: m.errors,
      input_tokens: m.input,
      output_tokens: m.output,
      total_tokens: m.total,
    }))
    .sort((a, b) => b.calls - a.calls || a.model.localeCompare(b.model));

  return {
    schema: str(root['$schema']),
    run: {
      name: str(run['name']) ?? str(end?.['name']) ?? str(start?.['name']),
      run_id: str(run['run_id']) ?? str(manifest['run_id']),
      status: str(run['status']) ?? str(end?.['status']) ?? str(start?.['status']),
      started_at: startedAt,
      ended_at: endedAt,
      duration_ms: durationMs(startedAt, endedAt),
      input: facts.input,
      output: facts.output,
      error: facts.error,
    },
    program: facts.program,
    answer: facts.answer,
    tool_calls: toolCallsOf(events),
    generated_at: str(manifest['generated_at']),
    event_count: events.length,
    events_by_type: Object.fromEntries(sortedCounts(byType)),
    llm: {
      calls: modelList.reduce((n, m) => n + m.calls, 0),
      input_tokens: modelList.reduce((n, m) => n + m.input_tokens, 0),
      output_tokens: modelList.reduce((n, m) => n + m.output_tokens, 0),
      total_tokens: modelList.reduce((n, m) => n + m.total_tokens, 0),
      models: modelList,
    },
    tools: [...tools]
      .map(([name, t]) => ({ name, calls: t.calls, errors: t.errors }))
      .sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name)),
    env: Object.fromEntries(sortedCounts(env)),
    errors,
    chain: chainStatus(verification),
  };
}

function chainStatus(result: VerifyResult): ChainStatus {
  const failed: string[] = (
    ['schema', 'consistent', 'chain', 'digest', 'cassette'] as const
  ).filter((c) => !result.checks[c]);
  if (result.checks.signature === 'invalid' || result.checks.signature === 'revoked')
    failed.push('signature');
  return {
    verdict: result.verdict,
    integrity: result.integrity,
    checks: result.checks,
    failed,
    errors: result.errors,
    signer:
      result.signer === undefined
        ? null
        : { alg: result.signer.alg, key_id: result.signer.key_id ?? null },
  };
}

function errorOf(event: Json, index: number, type: string, subject: string | null): EventError {
  const error = event['error'];
  const obj = asObject(error);
  const message =
    obj === undefined
      ? (str(error) ?? JSON.stringify(error))
      : (str(obj['message']) ?? JSON.stringify(error));
  const seq = event['seq'];
  return {
    event_index: index,
    seq: typeof seq === 'number' && Number.isInteger(seq) ? seq : null,
    type,
    subject,
    name: obj === undefined ? null : str(obj['name']),
    message,
  };
}

function modelName(model: unknown): string {
  const m = asObject(model) ?? {};
  const provider = str(m['provider']);
  const id = str(m['model_id']) ?? '(unknown model)';
  return provider === null ? id : `${provider}/${id}`;
}

function durationMs(start: string | null, end: string | null): number | null {
  if (start === null || end === null) return null;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) ? ms : null;
}

/** The earliest parseable ts_start, when the record names no start time. */
function earliest(events: readonly Json[]): string | null {
  let best: { text: string; ms: number } | null = null;
  for (const event of events) {
    const text = str(event['ts_start']);
    const ms = text === null ? NaN : Date.parse(text);
    if (text !== null && Number.isFinite(ms) && (best === null || ms < best.ms))
      best = { text, ms };
  }
  return best?.text ?? null;
}

function sortedCounts(map: ReadonlyMap<string, number>): [string, number][] {
  return [...map].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** A token count: a finite number >= 0, else nothing. */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}
