// The content of a run report, as data: what ran, the models and tools it used, what it
// decided, what it cost in tokens, the artifacts it produced and whether the record verifies.
// Built from inspect's summary (one reading of a record) plus the decisions and artifacts.
import { canonical } from '@runback/canonical';
import { declaredArtifacts, type ArtifactRef } from '@runback/bundle';
import type { VerifyResult } from '@runback/verify';
import { summarizeRecord, type RecordSummary } from '../inspect/summarize.js';

/** One recorded reasoning step or decision. */
export interface Decision {
  readonly seq: number | null;
  readonly label: string;
  readonly text: string;
}

export interface ReportModel {
  readonly summary: RecordSummary;
  readonly verification: VerifyResult;
  /** The run's output as canonical JSON, or null. */
  readonly output: string | null;
  /** The run's error message, or null. */
  readonly error: string | null;
  readonly decisions: readonly Decision[];
  /** Tools the models asked for, by name, in order of first request. */
  readonly requestedTools: readonly string[];
  readonly artifacts: readonly ArtifactRef[];
  /** Distinct actors (type:id) named by events. */
  readonly actors: readonly string[];
}

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;

export function buildReport(record: unknown, verification: VerifyResult): ReportModel {
  const root = asObject(record) ?? {};
  const run = asObject(root['run']) ?? {};
  const events = (Array.isArray(root['events']) ? root['events'] : []).map(
    (e: unknown) => asObject(e) ?? {},
  );
  const decisions: Decision[] = [];
  const requested: string[] = [];
  const actors = new Set<string>();
  for (const event of events) {
    const seq = typeof event['seq'] === 'number' ? event['seq'] : null;
    if (event['type'] === 'reasoning' && typeof event['text'] === 'string') {
      decisions.push({
        seq,
        label: typeof event['label'] === 'string' ? event['label'] : 'reasoning',
        text: event['text'],
      });
    }
    const calls = asObject(event['response'])?.['tool_calls'];
    if (event['type'] === 'llm' && Array.isArray(calls)) {
      for (const call of calls) {
        const name = asObject(call)?.['tool_name'];
        if (typeof name === 'string' && !requested.includes(name)) requested.push(name);
      }
    }
    const actor = asObject(event['actor']);
    if (actor !== null && typeof actor['type'] === 'string') {
      const id = actor['id'];
      actors.add(
        `${actor['type']}:${typeof id === 'string' || typeof id === 'number' ? String(id) : '?'}`,
      );
    }
  }
  let output: string | null = null;
  try {
    output = run['output'] === undefined ? null : canonical(run['output']);
  } catch {
    output = null;
  }
  const err = asObject(run['error']);
  return {
    summary: summarizeRecord(record, verification),
    verification,
    output,
    error: err !== null && typeof err['message'] === 'string' ? err['message'] : null,
    decisions,
    requestedTools: requested,
    artifacts: declaredArtifacts(record).artifacts,
    actors: [...actors].sort(),
  };
}
