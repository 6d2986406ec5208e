// Putting a sealed record together from digests computed incrementally: the manifest (same
// members and order as @runback/sign's sealRecord writes), the run summary (which must agree
// with the run events: docs/spec.md §5.2), and the file text, streamed.
import { buildManifest, type SealedManifest, type Signer } from '@runback/sign';
import type { SealDigests } from './sealer.js';

/** The `$schema` every writer emits (docs/spec.md §5). */
export const RECORD_SCHEMA = 'runback.audit/v2';

/** A record's manifest (as @runback/sign builds it). */
export type Manifest = SealedManifest;

/** The manifest for digests computed incrementally, signed when a signer is given. */
export function manifestForDigests(
  runId: string,
  digests: SealDigests,
  generatedAt: string,
  signer: Signer | undefined,
): Manifest {
  return buildManifest(
    {
      runId,
      generatedAt,
      eventCount: digests.eventCount,
      contentDigest: digests.contentDigest,
      cassetteDigest: digests.cassetteDigest,
      entryCount: digests.entryCount,
    },
    signer,
  );
}

/** The run summary: a readable digest of the run-start and run-end events. */
export interface RunSummary {
  readonly run_id: string;
  readonly name: string;
  readonly status: 'running' | 'success' | 'error';
  readonly started_at: string;
  readonly ended_at?: string;
  readonly output?: unknown;
  readonly error?: unknown;
  readonly metadata?: Record<string, unknown>;
}

/** The members of a run-start or run-end event the summary repeats. */
export interface RunPhaseEvent {
  readonly run_id: string;
  readonly name: string;
  readonly ts_start: string;
  readonly ts_end: string;
  readonly status: 'running' | 'success' | 'error';
  readonly output?: unknown;
  readonly error?: unknown;
  readonly metadata?: Record<string, unknown>;
}

/**
 * The summary for a run's start and end events. Every member it states equals the events'
 * values, so the `consistent` check holds by construction.
 */
export function runSummary(start: RunPhaseEvent, end: RunPhaseEvent | undefined): RunSummary {
  if (end === undefined) {
    return {
      run_id: start.run_id,
      name: start.name,
      status: 'running',
      started_at: start.ts_start,
    };
  }
  return {
    run_id: start.run_id,
    name: end.name,
    status: end.status,
    started_at: start.ts_start,
    ended_at: end.ts_end,
    output: end.output ?? null,
    error: end.error ?? null,
    ...(end.metadata === undefined ? {} : { metadata: end.metadata }),
  };
}

/**
 * The record file's text in pieces: one event per line, so that line tools and diffs work on
 * records, with the events exactly as sealed (docs/spec.md §7: the members of each event in
 * canonical order, values in the order the program gave them; no whitespace inside).
 */
export async function* recordPieces(
  manifest: Manifest,
  run: RunSummary,
  eventTexts: Iterable<string> | AsyncIterable<string>,
): AsyncGenerator<string> {
  yield `{"$schema":${JSON.stringify(RECORD_SCHEMA)},"manifest":${JSON.stringify(manifest)},"run":${JSON.stringify(run)},"events":[`;
  let first = true;
  for await (const text of eventTexts) {
    yield (first ? '\n' : ',\n') + text;
    first = false;
  }
  yield first ? ']}\n' : '\n]}\n';
}
