// Step 2, consistent: the unsigned summary (manifest.run_id, manifest.event_count, run) agrees
// with the signed events (format-decisions, "The consistent check", rules 1–5). A summary
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
  const out = new StepErrors('consistent');
  const { manifest, run, events } = parts;
  if (manifest === null || run === null || events === null) {
    out.add(
      'CONSISTENT_UNCHECKABLE',
      'expected manifest, run and events to compare, got a record missing one of them',
    );
    return out.result();
  }
  checkRunIds(manifest, run, events, out);
  checkEventCount(manifest, events, out);
  checkSeqs(events, out);
  checkRunPhases(run, events, out);
  return out.result();
}

// Rule 1: manifest.run_id === run.run_id, and every event's run_id equals it.
function checkRunIds(
  manifest: JsonObject,
  run: JsonObject,
  events: readonly unknown[],
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
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    const eventRunId = isObject(event) ? event['run_id'] : undefined;
    if (eventRunId !== runId) {
      out.add(
        'CONSISTENT_RUN_ID',
        `expected event ${i} run_id to equal manifest.run_id ${describe(runId)}, got ${describe(eventRunId)}`,
        i,
      );
      return;
    }
  }
}

// Rule 2: manifest.event_count === events.length.
function checkEventCount(manifest: JsonObject, events: readonly unknown[], out: StepErrors): void {
  if (manifest['event_count'] !== events.length) {
    out.add(
      'CONSISTENT_EVENT_COUNT',
      `expected manifest.event_count to be ${events.length} (the number of events), got ${describe(manifest['event_count'])}`,
    );
  }
}

// Rule 5: every seq is an integer >= 0 and no two are equal.
function checkSeqs(events: readonly unknown[], out: StepErrors): void {
  const seqs: number[] = [];
  // Seqs assigned in recording order are strictly increasing, which proves them unique
  // without a map; only records that are not need one.
  let increasing = true;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    const seq = isObject(event) ? event['seq'] : undefined;
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) {
      out.add(
        'CONSISTENT_SEQ',
        `expected event ${i} seq to be an integer >= 0, got ${describe(seq)}`,
        i,
      );
      return;
    }
    if (i > 0 && seq <= (seqs[i - 1] as number)) increasing = false;
    seqs.push(seq);
  }
  if (increasing) return;
  const seen = new Map<number, number>();
  for (let i = 0; i < seqs.length; i++) {
    const seq = seqs[i] as number;
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
function checkRunPhases(run: JsonObject, events: readonly unknown[], out: StepErrors): void {
  const found: Partial<Record<RunPhase, PhaseEvent>> = {};
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (!isObject(event) || event['type'] !== 'run') continue;
    const phase = event['phase'];
    if (phase !== 'start' && phase !== 'end') continue;
    const first = found[phase];
    if (first !== undefined) {
      out.add(
        'CONSISTENT_RUN_PHASES',
        `expected at most one run ${phase} event, got a second at event ${i} (first at ${first.index})`,
        i,
      );
      return;
    }
    found[phase] = { event, index: i };
  }

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
