// Step 2, consistent: the unsigned summary (manifest.run_id, manifest.event_count, run) agrees
// with the signed events (docs/spec.md §5.2, rules 1–5). A summary
// that contradicts its own events is rejected however intact the chain is.
import { canonical } from '@runback/canonical';
import {
  describe,
  isObject,
  StepErrors,
  type JsonObject,
  type RecordParts,
  type StepResult,
} from './context.js';
import { instantOf, sameInstant } from './instant.js';

/** Checks rules 1–5 of the consistent check. */
export function checkConsistent(parts: RecordParts): StepResult {
  const facts = new ConsistentFacts();
  const events = parts.events ?? [];
  for (let i = 0; i < events.length; i++) facts.add(events[i], i);
  return checkConsistentFacts(parts, facts);
}

/**
 * What the consistent check needs from the events, gathered one event at a time so that a
 * streamed record need not be held whole: the count, the first events that break the run id,
 * seq and run-phase rules, the run start and end events, and the seqs (8 bytes an event).
 */
export class ConsistentFacts {
  count = 0;
  #firstRunId: unknown = undefined;
  #otherRunId: { index: number; value: unknown } | null = null;
  badSeq: { index: number; value: unknown } | null = null;
  #seqs = new Float64Array(1024);
  increasing = true;
  repeatedPhase: { phase: RunPhase; index: number; first: number } | null = null;
  readonly found: Partial<Record<RunPhase, PhaseEvent>> = {};

  /** Adds the event at `index` (events are added in array order, from 0). */
  add(event: unknown, index: number): void {
    this.count = index + 1;
    const object = isObject(event) ? event : null;
    const runId = object?.['run_id'];
    if (index === 0) this.#firstRunId = runId;
    else if (this.#otherRunId === null && runId !== this.#firstRunId)
      this.#otherRunId = { index, value: runId };
    if (this.badSeq === null) {
      const seq = object?.['seq'];
      if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) {
        this.badSeq = { index, value: seq };
      } else {
        if (index === this.#seqs.length) {
          const grown = new Float64Array(this.#seqs.length * 2);
          grown.set(this.#seqs);
          this.#seqs = grown;
        }
        if (index > 0 && seq <= (this.#seqs[index - 1] as number)) this.increasing = false;
        this.#seqs[index] = seq;
      }
    }
    if (object === null || object['type'] !== 'run' || this.repeatedPhase !== null) return;
    const phase = object['phase'];
    if (phase !== 'start' && phase !== 'end') return;
    const first = this.found[phase];
    if (first !== undefined) this.repeatedPhase = { phase, index, first: first.index };
    else this.found[phase] = { event: object, index };
  }

  /** The first event whose run_id is not `runId`, or null. */
  firstOtherRunId(runId: string): { index: number; value: unknown } | null {
    if (this.count === 0) return null;
    if (this.#firstRunId !== runId) return { index: 0, value: this.#firstRunId };
    return this.#otherRunId;
  }

  /** The seq of event `index` (read only when no event has a bad seq). */
  seqAt(index: number): number {
    return this.#seqs[index] as number;
  }
}

/** Rules 1–5 over gathered facts (`parts.events` is only tested for presence). */
export function checkConsistentFacts(parts: RecordParts, facts: ConsistentFacts): StepResult {
  const out = new StepErrors('consistent');
  const { manifest, run, events } = parts;
  if (manifest === null || run === null || events === null) {
    out.add(
      'CONSISTENT_UNCHECKABLE',
      'expected manifest, run and events to compare, got a record missing one of them',
    );
    return out.result();
  }
  checkRunIds(manifest, run, facts, out);
  checkEventCount(manifest, facts.count, out);
  checkSeqs(facts, out);
  checkRunPhases(run, facts, out);
  return out.result();
}

// Rule 1: manifest.run_id === run.run_id, and every event's run_id equals it.
function checkRunIds(
  manifest: JsonObject,
  run: JsonObject,
  facts: ConsistentFacts,
  out: StepErrors,
): void {
  const runId = manifest['run_id'];
  if (typeof runId !== 'string') {
    out.add('CONSISTENT_RUN_ID', `expected manifest.run_id to be a string, got ${describe(runId)}`);
    return;
  }
  if (run['run_id'] !== runId) {
    out.add(
      'CONSISTENT_RUN_ID',
      `expected run.run_id to equal manifest.run_id ${describe(runId)}, got ${describe(run['run_id'])}`,
    );
  }
  const other = facts.firstOtherRunId(runId);
  if (other !== null) {
    out.add(
      'CONSISTENT_RUN_ID',
      `expected event ${other.index} run_id to equal manifest.run_id ${describe(runId)}, got ${describe(other.value)}`,
      other.index,
    );
  }
}

// Rule 2: manifest.event_count === events.length.
function checkEventCount(manifest: JsonObject, count: number, out: StepErrors): void {
  if (manifest['event_count'] !== count) {
    out.add(
      'CONSISTENT_EVENT_COUNT',
      `expected manifest.event_count to be ${count} (the number of events), got ${describe(manifest['event_count'])}`,
    );
  }
}

// Rule 5: every seq is an integer >= 0 and no two are equal.
function checkSeqs(facts: ConsistentFacts, out: StepErrors): void {
  if (facts.badSeq !== null) {
    const { index, value } = facts.badSeq;
    out.add(
      'CONSISTENT_SEQ',
      `expected event ${index} seq to be an integer >= 0, got ${describe(value)}`,
      index,
    );
    return;
  }
  // Seqs assigned in recording order are strictly increasing, which proves them unique
  // without a map; only records that are not need one.
  if (facts.increasing) return;
  const seen = new Map<number, number>();
  for (let i = 0; i < facts.count; i++) {
    const seq = facts.seqAt(i);
    const first = seen.get(seq);
    if (first !== undefined) {
      out.add(
        'CONSISTENT_SEQ',
        `expected seq values to be unique, got seq ${seq} at events ${first} and ${i}`,
        i,
      );
      return;
    }
    seen.set(seq, i);
  }
}

// Rules 3 and 4: at most one run start and one run end; the summary matches them.
function checkRunPhases(run: JsonObject, facts: ConsistentFacts, out: StepErrors): void {
  const repeated = facts.repeatedPhase;
  if (repeated !== null) {
    out.add(
      'CONSISTENT_RUN_PHASES',
      `expected at most one run ${repeated.phase} event, got a second at event ${repeated.index} (first at ${repeated.first})`,
      repeated.index,
    );
    return;
  }
  const found = facts.found;

  const end = found.end;
  if (end !== undefined) {
    if (run['status'] !== end.event['status']) {
      out.add(
        'CONSISTENT_RUN_SUMMARY',
        `expected run.status to be ${describe(end.event['status'])} as the run end event says, got ${describe(run['status'])}`,
        end.index,
      );
    }
  } else if (run['status'] !== undefined && run['status'] !== 'running') {
    out.add(
      'CONSISTENT_RUN_SUMMARY',
      `expected run.status "running" or absent for a run with no end event, got ${describe(run['status'])}`,
    );
  }
  for (const rule of SUMMARY_RULES) {
    const source = found[rule.phase];
    const claimed = run[rule.member];
    if (source === undefined || claimed === undefined) continue;
    // ended_at falls back to ts_start for a run end event whose ts_end is null.
    const eventMember =
      rule.compare === 'instant' && source.event[rule.eventMember] === null && rule.fallback
        ? rule.fallback
        : rule.eventMember;
    const actual = source.event[eventMember];
    const agrees =
      rule.compare === 'canonical'
        ? sameJson(claimed, actual)
        : rule.compare === 'instant'
          ? sameInstant(claimed, actual)
          : claimed === actual;
    if (!agrees) {
      const shown = rule.compare === 'canonical' ? '' : ` ${describe(actual)}`;
      const verb = rule.compare === 'instant' ? 'to be the same instant as' : 'to equal';
      const got =
        rule.compare === 'canonical'
          ? 'a different value'
          : rule.compare === 'instant' && instantOf(claimed) === null
            ? `${describe(claimed)}, which is not an ISO 8601 date-time with a zone`
            : describe(claimed);
      out.add(
        'CONSISTENT_RUN_SUMMARY',
        `expected run.${rule.member} ${verb} the run ${rule.phase} event's ${eventMember}${shown}, got ${got}`,
        source.index,
      );
    }
  }
}

type RunPhase = 'start' | 'end';

interface PhaseEvent {
  readonly event: JsonObject;
  readonly index: number;
}

/**
 * Rule 4's optional summary members: when present in `run`, each must agree with a member of
 * the run start or end event: canonically for values, strictly for names, as the same instant
 * for timestamps (ended_at against ts_start when the end event's ts_end is null).
 */
const SUMMARY_RULES: readonly {
  readonly member: string;
  readonly phase: RunPhase;
  readonly eventMember: string;
  readonly compare: 'canonical' | 'strict' | 'instant';
  readonly fallback?: string;
}[] = [
  { member: 'output', phase: 'end', eventMember: 'output', compare: 'canonical' },
  { member: 'error', phase: 'end', eventMember: 'error', compare: 'canonical' },
  { member: 'name', phase: 'end', eventMember: 'name', compare: 'strict' },
  {
    member: 'ended_at',
    phase: 'end',
    eventMember: 'ts_end',
    compare: 'instant',
    fallback: 'ts_start',
  },
  { member: 'started_at', phase: 'start', eventMember: 'ts_start', compare: 'instant' },
];

/** Canonical equality (member order ignored); values with no canonical form are unequal. */
function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonical(a) === canonical(b);
  } catch {
    return false;
  }
}
