// Starting a run whose events another process adds (`runback record`): the journal gets its
// header and the run-start event here; a preloaded child appends its events; sealJournal adds
// the run-end event and writes the record.
import { isoNow } from '../core/internal-globals.js';
import { Redactor, type RedactionOptions } from '../redact/index.js';
import { ActiveRun } from '../session/active-run.js';
import { RUN_SPAN_ID, newRunId, runStartEvent } from '../session/run-events.js';
import { journalHeader } from './format.js';
import { snapshot } from '../session/snapshot.js';
import { NO_CAPTURE, type CaptureEnvOptions } from '../session/capture-settings.js';
import { childRecordingEnv } from './child-env.js';
import { JournalWriter } from './writer.js';
import type { Signer } from '@runback/sign';
import { journalMacKey, newJournalAuth } from './auth.js';

/** What {@link beginJournalRun} needs. */
export interface JournalRunInit {
  /** The journal file to create (it must not exist). */
  readonly journal: string;
  readonly name: string;
  readonly input?: unknown;
  readonly metadata?: Record<string, unknown>;
  readonly runId?: string;
  /** fsync each event (crash safety). Default true. */
  readonly sync?: boolean;
  readonly redact?: RedactionOptions | false;
  /**
   * The key the record will be signed with: every journal line then carries an HMAC under a key
   * derived from it (auth.ts), and recovery with the same key refuses lines written without it.
   */
  readonly signer?: Signer | undefined;
}

/** A run begun in a journal. */
export interface JournalRun {
  readonly runId: string;
  readonly journal: string;
  /**
   * The environment variables that make a Node child process started with the SDK preload
   * (see {@link preloadSpecifier}) append its calls to this run.
   */
  childEnv(capture?: boolean | CaptureEnvOptions): Record<string, string>;
}

/** Creates the journal with its header and run-start event. */
export function beginJournalRun(init: JournalRunInit): JournalRun {
  const runId = init.runId ?? newRunId();
  const sync = init.sync ?? true;
  // Checked before the journal exists: a journal left with only its header would block the
  // next attempt (OUTPUT_EXISTS) and hold nothing to recover (JOURNAL_EMPTY).
  const input = snapshot(init.input, 'run input') ?? null;
  const metadata = snapshot(init.metadata, 'run metadata');
  const redactor = new Redactor(init.redact === false ? { enabled: false } : init.redact);
  const auth = init.signer === undefined ? undefined : newJournalAuth();
  const macKey =
    init.signer === undefined || auth === undefined ? undefined : journalMacKey(init.signer, auth);
  const writer = JournalWriter.create(init.journal, journalHeader(runId, auth), { sync, macKey });
  let head = '';
  try {
    const run = new ActiveRun({
      runId,
      rootSpanId: RUN_SPAN_ID,
      sink: { write: (text) => writer.append(text) },
      redactor,
      capture: NO_CAPTURE,
    });
    run.emit(
      runStartEvent({ runId, seq: run.nextSeq(), name: init.name, at: isoNow(), input, metadata }),
    );
    head = run.finish().contentDigest;
  } finally {
    writer.close();
  }
  return {
    runId,
    journal: init.journal,
    childEnv: (capture = true) =>
      childRecordingEnv({
        journal: init.journal,
        runId,
        chainHead: head,
        chainCount: 1,
        firstSeq: 1,
        parentSpan: RUN_SPAN_ID,
        sync,
        capture,
        macKey: macKey === undefined ? undefined : Buffer.from(macKey).toString('hex'),
      }),
  };
}

/** The module specifier of the SDK preload, for `node --import`. */
export function preloadSpecifier(): string {
  return import.meta.resolve('@runback/sdk/preload');
}
