// Sealing a journal into a record: `runback recover` after a crash, and
// `runback record` once its program has exited. The journal is read twice, streaming: pass 1
// checks every line and computes the digests (memory stays bounded by the largest event), pass 2
// copies the checked lines into the record file. The journal itself is never modified.
import type { Signer } from '@runback/sign';
import { atomicWrite } from '../core/fs/atomic-write.js';
import { RunbackError } from '../core/errors.js';
import type { EventError } from '../core/events.js';
import { isoNow } from '../core/internal-globals.js';
import {
  manifestForDigests,
  recordPieces,
  runSummary,
  type Manifest,
  type RunPhaseEvent,
  type RunSummary,
} from '../session/record-file.js';
import { runEndEvent } from '../session/run-events.js';
import { Redactor, type RedactionOptions } from '../redact/index.js';
import { IncrementalSealer } from '../session/sealer.js';
import { headerProblem, writerMayBeAlive, type JournalHeader } from './format.js';
import { journalMacKey, macMatches, splitLine } from './auth.js';
import { readLines } from './lines.js';
import { basename, dirname } from 'node:path';
import { atomicTempOf, removeStaleTemps } from './stale-temps.js';

/** How a run without a run-end event in its journal ended. */
export interface JournalRunEnd {
  readonly status: 'success' | 'error';
  readonly output?: unknown;
  readonly error?: EventError | null;
  readonly metadata?: Record<string, unknown>;
}

/** Options of {@link sealJournal}. */
export interface SealJournalOptions {
  /** The record file to write (atomically). */
  readonly out: string;
  readonly signer?: Signer | undefined;
  /**
   * The run-end event's content when the journal has none. Default: the run was interrupted
   * (status `error`, error name `Interrupted`).
   */
  readonly end?: JournalRunEnd;
  /** Redaction of the added run-end event (default: on, built-in rules). */
  readonly redact?: RedactionOptions | false;
  /**
   * Sign a journal that carries no line MACs (one written without a key). Without this, a
   * `signer` and an unauthenticated journal are refused with JOURNAL_UNAUTHENTICATED: anyone
   * could have written or rewritten such a journal. Default false.
   */
  readonly allowUnauthenticated?: boolean;
}

/**
 * What the journal's line MACs established: `checked` every line's MAC matched the signer's
 * key; `unchecked` the journal has MACs but no signer was given to check them (the record is
 * unsigned); `none` the journal has no MACs (written without a key: unauthenticated).
 */
export type JournalAuthentication = 'checked' | 'unchecked' | 'none';

/** What sealing a journal found and wrote. */
export interface SealJournalReport {
  readonly path: string;
  readonly runId: string;
  /** Events read from the journal (the appended run-end event not counted). */
  readonly recoveredEvents: number;
  /** Events by type, as read from the journal. */
  readonly eventTypes: Readonly<Record<string, number>>;
  /** Whether a run-end event was added (false when the journal already had one). */
  readonly appendedEnd: boolean;
  /** Whether the appended run-end says the run was interrupted. */
  readonly interrupted: boolean;
  /** The 1-based number of a torn final line that was dropped, if any. */
  readonly droppedTornLine: number | undefined;
  readonly authentication: JournalAuthentication;
  /**
   * The journal's writer (the pid in its header, on this host) is still running: the run may not
   * be over, and the record holds only what was journaled so far.
   */
  readonly writerMayBeAlive: boolean;
  readonly manifest: Manifest;
  readonly summary: RunSummary;
}

type RunPhase = RunPhaseEvent & { readonly span_id: string };

/** Checks a journal, adds a run-end event if it has none, and writes the sealed record. */
export async function sealJournal(
  journalPath: string,
  options: SealJournalOptions,
): Promise<SealJournalReport> {
  const scan = await scanJournal(journalPath, options);
  const { sealer, start } = scan;
  let endText: string | undefined;
  let end = scan.end;
  const interrupted = end === undefined && options.end === undefined;
  if (end === undefined) {
    const given = options.end ?? {
      status: 'error' as const,
      output: null,
      error: {
        name: 'Interrupted',
        message: `the run stopped before it ended; recovered from its journal (${scan.count} events)`,
      },
      metadata: { recovered_at: isoNow() },
    };
    // The added event is redacted like every other (a program's stdout can hold a key).
    const event = runEndEvent(
      {
        runId: scan.runId,
        spanId: start.span_id,
        seq: scan.maxSeq + 1,
        name: start.name,
        startedAt: start.ts_start,
        // Interrupted: the last moment the run is known to have been alive.
        endedAt: interrupted ? scan.lastTsEnd : isoNow(),
        status: given.status,
        output: given.output ?? null,
        error: given.error ?? null,
        index: scan.count,
        redactions: scan.redactions,
        ...(given.metadata === undefined ? {} : { metadata: given.metadata }),
      },
      new Redactor(options.redact === false ? { enabled: false } : options.redact),
    );
    endText = sealer.add(event);
    end = event;
  }
  const digests = sealer.finish();
  const summary = runSummary(start, end);
  const manifest = manifestForDigests(scan.runId, digests, isoNow(), options.signer);

  async function* texts(): AsyncGenerator<string> {
    let copied = 0;
    for await (const line of readLines(journalPath)) {
      if (line.number === 1) continue;
      if (copied === scan.count) break;
      const { text, mac } = splitLine(line.text);
      // Checked again: the file could have changed since pass 1.
      if (scan.macKey !== undefined && (mac === undefined || !macMatches(scan.macKey, text, mac))) {
        throw new RunbackError(
          'JOURNAL_UNAUTHENTIC',
          `journal ${journalPath}, line ${line.number} changed while it was being sealed`,
        );
      }
      yield scan.authenticated ? text : line.text;
      copied++;
    }
    if (copied !== scan.count) {
      throw new RunbackError(
        'JOURNAL_CORRUPT',
        `journal ${journalPath} changed while it was being sealed: expected ${scan.count} events, read ${copied}`,
      );
    }
    if (endText !== undefined) yield endText;
  }
  // A temporary file a killed seal of the same record left (its pid gone) is removed first.
  await removeStaleTemps(dirname(options.out), atomicTempOf(basename(options.out)));
  await atomicWrite(options.out, recordPieces(manifest, summary, texts()));

  return {
    path: options.out,
    runId: scan.runId,
    recoveredEvents: scan.count,
    eventTypes: scan.types,
    appendedEnd: endText !== undefined,
    interrupted,
    droppedTornLine: scan.tornLine,
    writerMayBeAlive: scan.writerAlive,
    authentication: !scan.authenticated
      ? 'none'
      : scan.macKey === undefined
        ? 'unchecked'
        : 'checked',
    manifest,
    summary,
  };
}

/** Pass 1: every line checked, the chain recomputed, the run's start and end found. */
async function scanJournal(path: string, options: SealJournalOptions) {
  const sealer = new IncrementalSealer();
  const seqs = new Set<number>();
  const types: Record<string, number> = {};
  const redactions: string[] = [];
  let runId: string | undefined;
  let start: RunPhase | undefined;
  let end: RunPhase | undefined;
  let count = 0;
  let maxSeq = -1;
  let lastTsEnd = '';
  let tornLine: number | undefined;
  let authenticated = false;
  let writerAlive = false;
  let macKey: Uint8Array | undefined;
  const corrupt = (number: number, what: string) =>
    new RunbackError('JOURNAL_CORRUPT', `journal ${path}, line ${number}: ${what}`);

  for await (const line of readLines(path)) {
    const { text, mac } = splitLine(line.text);
    if (line.number === 1) {
      let header: unknown;
      try {
        header = JSON.parse(text);
      } catch {
        header = undefined;
      }
      const problem = line.terminated ? headerProblem(header) : 'the header line is incomplete';
      if (problem !== undefined) {
        throw new RunbackError(
          'JOURNAL_HEADER_INVALID',
          `${path} is not a runback journal: ${problem}`,
        );
      }
      const { run_id, auth } = header as JournalHeader;
      runId = run_id;
      writerAlive = writerMayBeAlive(header as JournalHeader);
      authenticated = auth !== undefined;
      if (auth === undefined && options.signer !== undefined && !options.allowUnauthenticated) {
        throw new RunbackError(
          'JOURNAL_UNAUTHENTICATED',
          `journal ${path} carries no line MACs (it was written without a signing key), so anyone could have written or changed it; expected a journal written with the key given for signing`,
        );
      }
      if (auth !== undefined && options.signer !== undefined) {
        macKey = journalMacKey(options.signer, auth);
      }
    }
    if (!line.terminated) {
      // A write cut short by the crash: never acknowledged, so not an event of the run.
      tornLine = line.number;
      break;
    }
    if (authenticated && mac === undefined) {
      throw new RunbackError(
        'JOURNAL_UNAUTHENTIC',
        `journal ${path}, line ${line.number}: expected a line MAC (the header says every line has one), got none`,
      );
    }
    if (!authenticated && mac !== undefined) {
      throw corrupt(line.number, 'expected no line MAC in a journal whose header declares none');
    }
    if (macKey !== undefined && !macMatches(macKey, text, mac as string)) {
      throw new RunbackError(
        'JOURNAL_UNAUTHENTIC',
        line.number === 1
          ? `journal ${path}: expected its header's MAC to match the signing key, got one that does not: the journal was written under another key, or changed without the key`
          : `journal ${path}, line ${line.number}: expected the line's MAC to match the signing key, got one that does not: the line was written or changed without the key`,
      );
    }
    if (line.number === 1) continue;
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(text) as Record<string, unknown>;
    } catch (err) {
      throw corrupt(
        line.number,
        `expected a JSON event, got text that does not parse (${(err as Error).message})`,
      );
    }
    if (typeof event !== 'object' || event === null || Array.isArray(event)) {
      throw corrupt(line.number, 'expected a JSON object event');
    }
    if (event['run_id'] !== runId) {
      throw corrupt(
        line.number,
        `expected run_id ${JSON.stringify(runId)}, got ${JSON.stringify(event['run_id'])}`,
      );
    }
    const seq = event['seq'];
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0 || seqs.has(seq)) {
      throw corrupt(line.number, `expected a unique integer seq >= 0, got ${JSON.stringify(seq)}`);
    }
    if (end !== undefined) throw corrupt(line.number, 'expected no event after the run-end event');
    if (!sealer.addSealed(event as { seq: number })) {
      throw corrupt(
        line.number,
        'expected _hash to continue the event chain; the line was altered',
      );
    }
    seqs.add(seq);
    maxSeq = Math.max(maxSeq, seq);
    const type = String(event['type']);
    types[type] = (types[type] ?? 0) + 1;
    if (typeof event['ts_end'] === 'string') lastTsEnd = event['ts_end'];
    const redacted = (event['metadata'] as { redacted?: unknown } | undefined)?.redacted;
    if (Array.isArray(redacted)) {
      for (const site of redacted)
        if (typeof site === 'string') redactions.push(`/events/${count}${site}`);
    }
    if (type === 'run' && event['phase'] === 'start') {
      if (start !== undefined)
        throw corrupt(line.number, 'expected one run-start event, got a second');
      start = event as unknown as RunPhase;
    } else if (type === 'run' && event['phase'] === 'end') {
      end = event as unknown as RunPhase;
    }
    count++;
  }
  if (runId === undefined) {
    throw new RunbackError(
      'JOURNAL_HEADER_INVALID',
      `${path} is empty: expected a journal header line; a run stopped before it started leaves an empty journal, which holds nothing to recover: remove it (rm ${path}) and run again`,
    );
  }
  if (start === undefined) {
    throw new RunbackError(
      'JOURNAL_EMPTY',
      `journal ${path} holds no run-start event: the run was stopped before it started, so it recorded nothing and there is no run to recover; remove the journal (rm ${path}) and run again`,
    );
  }
  return {
    sealer,
    runId,
    start,
    end,
    count,
    maxSeq,
    lastTsEnd,
    tornLine,
    types,
    redactions,
    authenticated,
    macKey,
    writerAlive,
  };
}
