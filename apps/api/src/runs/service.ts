// Run operations: start, append a batch, finish (write the run-end event, seal, sign), list,
// summarize. Each write happens in one store transaction holding the run's lock, so the chain
// head advances exactly once per event whatever the number of writers or instances.
import { canonical, sha256Hex } from '@runback/canonical';
import { buildManifest, type SealedManifest } from '@runback/sign';
import { CassetteBuilder } from '@runback/replay-digest';
import { contentDigestOf } from '@runback/chain';
import { verifyJson } from '@runback/verify';
import type { z } from 'zod';
import { ApiError } from '../errors.js';
import { randomId } from '../ids.js';
import type { ServiceKeys } from '../keys/service-keys.js';
import { logSealedRun } from '../log/sealed-head.js';
import type { TransparencyLog } from '../log/transparency-log.js';
import type { RunFinishSchema, RunStartSchema } from '../schemas.js';
import { isUniqueViolation, type EventRow, type RunRow, type Store } from '../store/types.js';
import { chainEvent } from './chain-event.js';
import type { CheckedEvent } from './event-checks.js';
import { exportText } from './export.js';
import { runEndEvent, runStartEvent } from './run-events.js';
import { sealManifest } from './seal.js';

type RunStart = z.infer<typeof RunStartSchema>;
type RunFinish = z.infer<typeof RunFinishSchema>;

/** A run as the API shows it in lists and answers. */
export interface RunResource {
  readonly run_id: string;
  readonly name: string;
  readonly status: 'running' | 'success' | 'error';
  readonly started_at: string;
  readonly ended_at: string | null;
  readonly event_count: number;
  readonly sealed: boolean;
}

export function runResource(row: RunRow): RunResource {
  return {
    run_id: row.id,
    name: row.name,
    status: row.status as RunResource['status'],
    started_at: row.started_at,
    ended_at: row.ended_at,
    event_count: Number(row.event_count),
    sealed: Number(row.sealed) === 1,
  };
}

/** The answer to an appended batch (and, verbatim, to its retries). */
export interface BatchResult {
  readonly run_id: string;
  readonly accepted: number;
  readonly first_seq: number;
  readonly last_seq: number;
  readonly event_count: number;
  readonly head: string;
}

function notFound(runId: string): ApiError {
  return new ApiError(
    404,
    'NOT_FOUND',
    `expected a run ${JSON.stringify(runId)} in this project, got none`,
  );
}

function sealedError(runId: string): ApiError {
  return new ApiError(
    409,
    'RUN_SEALED',
    `expected run ${runId} to be running, got a finished and sealed run`,
  );
}

export class RunService {
  readonly #store: Store;
  readonly #keys: ServiceKeys;
  readonly #now: () => Date;
  readonly #log: TransparencyLog | null;

  constructor(store: Store, keys: ServiceKeys, now: () => Date, log: TransparencyLog | null) {
    this.#store = store;
    this.#keys = keys;
    this.#now = now;
    this.#log = log;
  }

  #iso(): string {
    return this.#now().toISOString();
  }

  async start(
    projectId: string,
    body: RunStart,
    actor: { type: 'api_key'; id: string },
  ): Promise<RunResource> {
    const runId = randomId('run_');
    const at = this.#iso();
    const start = runStartEvent({
      runId,
      name: body.name,
      at,
      input: body.input,
      metadata: body.metadata,
      actor: body.actor ?? actor,
    });
    const { hash, body: text } = chainEvent('', start);
    const row: RunRow = {
      id: runId,
      project_id: projectId,
      name: body.name,
      status: 'running',
      started_at: at,
      ended_at: null,
      event_count: 1,
      next_seq: 1,
      head_hash: hash,
      sealed: 0,
      manifest: null,
      summary: null,
    };
    await this.#store.createRun(row, {
      run_id: runId,
      position: 0,
      seq: 0,
      type: 'run',
      body: text,
    });
    return runResource(row);
  }

  /**
   * Appends a batch under its idempotency key: a retry (same key, same batch) gets the first
   * answer and changes nothing; the same key with another batch is refused.
   */
  async append(
    projectId: string,
    runId: string,
    idempotencyKey: string,
    events: readonly CheckedEvent[],
  ): Promise<{ readonly result: BatchResult; readonly replayed: boolean }> {
    const requestHash = sha256Hex(canonical(events));
    const at = this.#iso();
    try {
      const outcome = await this.#store.withRunLocked(projectId, runId, async (tx) => {
        const prior = await tx.findBatch(idempotencyKey);
        if (prior !== undefined) {
          if (prior.requestHash !== requestHash) {
            throw new ApiError(
              422,
              'IDEMPOTENCY_KEY_REUSED',
              `expected Idempotency-Key ${JSON.stringify(idempotencyKey)} to come with the batch it was first used for, got a different batch`,
            );
          }
          return { result: JSON.parse(prior.response) as BatchResult, replayed: true };
        }
        if (Number(tx.run.sealed) === 1) throw sealedError(runId);
        let head = tx.run.head_hash;
        let position = Number(tx.run.event_count);
        let nextSeq = Number(tx.run.next_seq);
        const rows: EventRow[] = [];
        for (const event of events) {
          const seq = typeof event['seq'] === 'number' ? event['seq'] : nextSeq;
          nextSeq = Math.max(nextSeq, seq + 1);
          const chained = chainEvent(head, { ...event, run_id: runId, seq });
          head = chained.hash;
          rows.push({ run_id: runId, position, seq, type: event.type, body: chained.body });
          position++;
        }
        await tx.insertEvents(rows);
        await tx.updateRun({ head_hash: head, event_count: position, next_seq: nextSeq });
        const result: BatchResult = {
          run_id: runId,
          accepted: rows.length,
          first_seq: (rows[0] as EventRow).seq,
          last_seq: (rows[rows.length - 1] as EventRow).seq,
          event_count: position,
          head,
        };
        await tx.saveBatch(idempotencyKey, { requestHash, response: JSON.stringify(result) }, at);
        return { result, replayed: false };
      });
      if (outcome === undefined) throw notFound(runId);
      return outcome;
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new ApiError(
          409,
          'SEQ_TAKEN',
          `expected every seq of the batch to be new in run ${runId}, got one already used`,
        );
      }
      throw err;
    }
  }

  /** Writes the run-end event, seals and signs the run, and checks the record verifies. */
  async finish(projectId: string, runId: string, body: RunFinish): Promise<RunResource> {
    const endedAt = this.#iso();
    const outcome = await this.#store.withRunLocked(projectId, runId, async (tx) => {
      const run = tx.run;
      if (Number(run.sealed) === 1) throw sealedError(runId);
      const seq = Number(run.next_seq);
      const end = runEndEvent({
        runId,
        name: run.name,
        seq,
        startedAt: run.started_at,
        endedAt,
        status: body.status,
        output: body.output,
        error: body.error ?? null,
      });
      const chained = chainEvent(run.head_hash, end);
      const position = Number(run.event_count);
      await tx.insertEvents([{ run_id: runId, position, seq, type: 'run', body: chained.body }]);
      const manifest = await sealManifest(
        { runId, generatedAt: endedAt, eventCount: position + 1, headHash: chained.hash },
        (after, limit) => tx.eventsBySeq(after, limit),
        this.#keys.signer,
      );
      const summary = {
        run_id: runId,
        name: run.name,
        status: body.status,
        started_at: run.started_at,
        ended_at: endedAt,
        output: body.output ?? null,
        error: body.error ?? null,
      };
      const sealed: RunRow = {
        ...run,
        status: body.status,
        ended_at: endedAt,
        event_count: position + 1,
        next_seq: seq + 1,
        head_hash: chained.hash,
        sealed: 1,
        manifest: JSON.stringify(manifest),
        summary: JSON.stringify(summary),
      };
      await tx.updateRun({
        status: sealed.status,
        ended_at: sealed.ended_at,
        event_count: sealed.event_count,
        next_seq: sealed.next_seq,
        head_hash: sealed.head_hash,
        sealed: 1,
        manifest: sealed.manifest,
        summary: sealed.summary,
      });
      return sealed;
    });
    if (outcome === undefined) throw notFound(runId);
    // A writer verifies what it wrote before it lets it go (docs/spec.md §7).
    const text = await exportText(
      this.#store,
      runId,
      outcome.manifest as string,
      outcome.summary as string,
    );
    const check = verifyJson(text, this.#keys.trust);
    if (!check.integrity) {
      throw new ApiError(
        500,
        'INTERNAL',
        `expected the sealed record of ${runId} to verify, got ${check.errors[0]?.code ?? check.verdict}`,
      );
    }
    // The sealed head goes into the transparency log (after the seal commits; were this to
    // fail, the export logs it).
    if (this.#log !== null) await logSealedRun(this.#log, outcome);
    return runResource(outcome);
  }

  async get(projectId: string, runId: string): Promise<RunRow> {
    const row = await this.#store.getRun(projectId, runId);
    if (row === undefined) throw notFound(runId);
    return row;
  }

  /** The record as it stands: the sealed export, or for a running run an unsigned snapshot. */
  async recordText(projectId: string, runId: string): Promise<string> {
    const row = await this.get(projectId, runId);
    if (row.manifest !== null && row.summary !== null) {
      return exportText(this.#store, runId, row.manifest, row.summary);
    }
    const events: Record<string, unknown>[] = [];
    for (let after = -1; ;) {
      const page = await this.#store.eventsByPosition(runId, after, 1000);
      for (const e of page) events.push(JSON.parse(e.body) as Record<string, unknown>);
      const last = page[page.length - 1];
      if (last === undefined || page.length < 1000) break;
      after = last.position;
    }
    const cassette = new CassetteBuilder();
    for (const event of [...events].sort((a, b) => (a['seq'] as number) - (b['seq'] as number)))
      cassette.add(event);
    const manifest: SealedManifest = buildManifest({
      runId,
      generatedAt: this.#iso(),
      eventCount: events.length,
      contentDigest: contentDigestOf(row.head_hash),
      cassetteDigest: cassette.digest,
      entryCount: cassette.entryCount,
    });
    const summary = {
      run_id: runId,
      name: row.name,
      status: 'running',
      started_at: row.started_at,
    };
    return JSON.stringify({ $schema: 'runback.audit/v2', manifest, run: summary, events });
  }
}
