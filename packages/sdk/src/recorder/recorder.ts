// Starting, running and ending a recorded run (docs/spec.md §3 and §7).
//
//   const run = startRun({ name: 'loan-approval', input, out: 'run.json', signer });
//   const output = await run.run(() => agent(input));   // calls inside are recorded
//   await run.end({ output });                          // run-end event, seal, sign, write
//
// or in one step: `await record(options, () => agent(input))`.
import { atomicWrite } from '../core/fs/atomic-write.js';
import { isoNow } from '../core/internal-globals.js';
import { journalHeader, journalPathFor } from '../journal/format.js';
import { journalEventTexts } from '../journal/read.js';
import { JournalWriter } from '../journal/writer.js';
import { journalMacKey, newJournalAuth } from '../journal/auth.js';
import { toEventError } from '../core/events.js';
import { installCapture } from '../hooks/env/install.js';
import { captureSettings, capturesAnything } from '../session/capture-settings.js';
import { Redactor } from '../redact/index.js';
import {
  RECORD_SCHEMA,
  manifestForDigests,
  recordPieces,
  runSummary,
  type Manifest,
  type RunSummary,
} from '../session/record-file.js';
import { RunbackError, argError } from '../core/errors.js';
import { unlink } from 'node:fs/promises';
import { ActiveRun, type EventSink } from '../session/active-run.js';
import { processReplaySource, runInScope, type Scope } from '../session/context.js';
import { RUN_SPAN_ID, newRunId, runEndEvent, runStartEvent } from '../session/run-events.js';
import { checkRunOptions, type RunOptions } from './options.js';
import { snapshot } from '../session/snapshot.js';
import { withDeferredEvents } from '../session/deferred-events.js';

export { RUN_SPAN_ID };

/** How a run ended. */
export type RunEnd = { readonly output?: unknown } | { readonly error: unknown };

/** What ending a run produced. */
export interface RunResult {
  readonly runId: string;
  readonly status: 'success' | 'error';
  readonly manifest: Manifest;
  readonly summary: RunSummary;
  /** The record file, when `out` was given. */
  readonly path?: string;
  /** The whole record, when no `out` was given. */
  readonly record?: { $schema: string; manifest: Manifest; run: RunSummary; events: unknown[] };
}

/** A run being recorded. */
export class Run {
  /** The run id, in every event. */
  readonly id: string;
  readonly name: string;
  readonly #active: ActiveRun;
  readonly #options: RunOptions;
  readonly #scope: Scope;
  readonly #texts: string[] | undefined;
  readonly #journal: JournalWriter | undefined;
  readonly #journalMacKey: Uint8Array | undefined;
  readonly #startEvent: { ts_start: string };
  #ending: Promise<RunResult> | undefined;

  /** @internal Use {@link startRun}. */
  constructor(options: RunOptions) {
    checkRunOptions(options);
    this.#options = options;
    this.id = options.runId ?? newRunId();
    this.name = options.name;
    const redactor = new Redactor(options.redact === false ? { enabled: false } : options.redact);
    const capture = captureSettings(options.captureEnv);
    const input = snapshot(options.input, 'run input');
    const metadata = snapshot(options.metadata, 'run metadata');
    const actor = snapshot(options.actor, 'run actor');

    let sink: EventSink;
    if (options.journal === undefined || options.journal === false) {
      const texts: string[] = [];
      this.#texts = texts;
      sink = { write: (text) => void texts.push(text) };
    } else {
      const path =
        options.journal === true ? journalPathFor(options.out as string) : options.journal;
      // With a signer, every line is authenticated under a key derived from it (auth.ts).
      const auth = options.signer === undefined ? undefined : newJournalAuth();
      const macKey =
        options.signer === undefined || auth === undefined
          ? undefined
          : journalMacKey(options.signer, auth);
      this.#journalMacKey = macKey;
      const journal = JournalWriter.create(path, journalHeader(this.id, auth), { macKey });
      this.#journal = journal;
      sink = { write: (text) => journal.append(text) };
    }
    const extra = options.sink;
    if (extra !== undefined) {
      const primary = sink;
      sink = {
        write: (text) => {
          primary.write(text);
          extra.write(text);
        },
        ready: () => extra.ready(),
      };
    }
    this.#active = new ActiveRun({
      runId: this.id,
      rootSpanId: RUN_SPAN_ID,
      sink,
      redactor,
      capture,
      replay: options.replaySource ?? processReplaySource(),
    });
    this.#scope = { run: this.#active, spanId: RUN_SPAN_ID, kind: 'run' };
    if (capturesAnything(capture)) installCapture();

    const now = isoNow();
    this.#startEvent = { ts_start: now };
    this.#active.emit(
      runStartEvent({
        runId: this.id,
        seq: this.#active.nextSeq(),
        name: this.name,
        at: now,
        input,
        metadata,
        actor,
      }),
    );
  }

  /** Whether `end()` has been called. */
  get ended(): boolean {
    return this.#ending !== undefined;
  }

  /**
   * Runs `fn` inside this run: model, tool and (with captureEnv) environment calls it makes,
   * directly or through awaits, timers and callbacks, are recorded here.
   */
  run<T>(fn: () => T): T {
    if (typeof fn !== 'function') throw argError('fn', 'a function', fn);
    if (this.#ending !== undefined) {
      throw new RunbackError(
        'RUN_ENDED',
        `run ${this.id} has ended; start a new run to record more`,
      );
    }
    return runInScope(this.#scope, fn);
  }

  /**
   * Ends the run: records the run-end event (status `success` with `output`, or `error`),
   * seals, signs and writes the record. Calls still in flight are not recorded; their number is
   * noted in the run-end metadata. Calling end() again returns the same result.
   */
  end(result: RunEnd = {}): Promise<RunResult> {
    this.#ending ??= this.#end(result);
    return this.#ending;
  }

  async #end(result: RunEnd): Promise<RunResult> {
    let failed = 'error' in result;
    let cause: unknown = 'error' in result ? result.error : undefined;
    let outputValue: unknown = null;
    // An output with no JSON form still ends the run — as failed, with that error — so the
    // record is written and the journal closed; end() then rejects with it.
    let notJson: unknown;
    if (!failed) {
      try {
        outputValue = snapshot((result as { output?: unknown }).output, 'run output') ?? null;
      } catch (err) {
        failed = true;
        cause = notJson = err;
      }
    }
    const open = this.#active.openCalls;
    const endEvent = runEndEvent(
      {
        runId: this.id,
        spanId: RUN_SPAN_ID,
        seq: this.#active.nextSeq(),
        name: this.name,
        startedAt: this.#startEvent.ts_start,
        endedAt: isoNow(),
        status: failed ? 'error' : 'success',
        output: outputValue,
        error: failed ? toEventError(cause) : null,
        index: this.#active.eventCount,
        redactions: this.#active.redactions,
        ...(open === 0 ? {} : { metadata: { unfinished_calls: open } }),
      },
      this.#active.redactor,
    );
    this.#active.emit(endEvent);
    const digests = this.#active.finish();
    const summary = runSummary({ ...endEvent, ts_start: this.#startEvent.ts_start }, endEvent);
    const manifest = manifestForDigests(this.id, digests, isoNow(), this.#options.signer);
    const base = { runId: this.id, status: endEvent.status, manifest, summary };

    if (this.#journal !== undefined) this.#journal.close();
    const texts: Iterable<string> | AsyncIterable<string> =
      this.#texts ?? journalEventTexts((this.#journal as JournalWriter).path, this.#journalMacKey);
    const out = this.#options.out;
    if (out === undefined) {
      const kept = this.#texts;
      const head = { $schema: RECORD_SCHEMA, manifest, run: summary };
      // replay(): the events are parsed from their texts when first read (deferEventParsing).
      const deferredRecord =
        kept !== undefined && deferred.has(this) ? withDeferredEvents(head, kept) : undefined;
      const events: unknown[] = [];
      if (deferredRecord !== undefined) {
        // Nothing to parse now.
      } else if (kept !== undefined) {
        // Each text is let go once parsed: the texts and the events are not both held whole.
        for (let i = 0; i < kept.length; i++) {
          events.push(JSON.parse(kept[i] as string));
          kept[i] = '';
        }
        kept.length = 0;
      } else for await (const text of texts) events.push(JSON.parse(text));
      // The record is in the caller's hands: the journal has served its purpose.
      if (this.#journal !== undefined) await unlink(this.#journal.path);
      // The run is also delivered to the sink (flushed, finished remotely), or end() fails.
      await this.#options.sink?.close();
      if (notJson !== undefined) throw notJson;
      return { ...base, record: deferredRecord ?? { ...head, events } };
    }
    await atomicWrite(out, recordPieces(manifest, summary, texts));
    // Written: the Run the caller keeps need not keep every event's text as well.
    if (this.#texts !== undefined) this.#texts.length = 0;
    // The record is on disk: the journal has served its purpose.
    if (this.#journal !== undefined) await unlink(this.#journal.path);
    await this.#options.sink?.close();
    if (notJson !== undefined) throw notJson;
    return { ...base, path: out };
  }
}

/** Runs whose in-memory record parses its events only when they are read (deferEventParsing). */
const deferred = new WeakSet<Run>();

/**
 * @internal For replay(): `run`'s in-memory record (no `out`, no journal) keeps its events'
 * texts and parses them when `record.events` is first read instead of in end(). A replay that
 * reproduces is proved by the digests alone and never reads them.
 */
export function deferEventParsing(run: Run): void {
  deferred.add(run);
}

/** Starts recording a run. Code inside `run.run(fn)` is recorded until `run.end()`. */
export function startRun(options: RunOptions): Run {
  return new Run(options);
}

/** What {@link record} returns. */
export interface Recorded<T> {
  /** What the agent returned. */
  readonly output: T;
  readonly result: RunResult;
}

/**
 * Records `agent()` as one run: starts it, runs the agent inside it, ends it with the agent's
 * return value as output, and writes the record. If the agent throws, the run ends with status
 * `error`, the record is still written, and the agent's error is rethrown.
 */
export async function record<T>(
  options: RunOptions,
  agent: () => T | Promise<T>,
): Promise<Recorded<Awaited<T>>> {
  const run = startRun(options);
  let output: Awaited<T>;
  try {
    output = await run.run(agent);
  } catch (err) {
    await run.end({ error: err });
    throw err;
  }
  return { output, result: await run.end({ output }) };
}
