// The journal (docs/guides/recording.md, "Crash safety"): JSON Lines, UTF-8. Line 1 is a header;
// every later line is one sealed event exactly as it will appear in the record (`_hash` set),
// appended and fsynced the moment the event completes. A torn final line (a write cut short by
// a crash) has no terminating newline and is dropped on recovery; any other bad line is an
// error that names its line number.
import { hostname } from 'node:os';
import { isoNow } from '../core/internal-globals.js';
import { authProblem, type JournalAuth } from './auth.js';

/** The journal format version in the header. */
export const JOURNAL_VERSION = 1;

/** The journal's first line. */
export interface JournalHeader {
  /** Format version: 1. */
  readonly runback_journal: typeof JOURNAL_VERSION;
  /** The run every event in the journal belongs to. */
  readonly run_id: string;
  /** When the journal was opened (ISO 8601). */
  readonly created_at: string;
  /** Who wrote it, for support. */
  readonly writer: string;
  /** The writing process and its host: recovery says when that process may still be running. */
  readonly pid?: number;
  readonly host?: string;
  /**
   * Present when every line (this one included) carries an HMAC under a key derived from the
   * signing key (see auth.ts); absent in a journal written without a key (unauthenticated).
   */
  readonly auth?: JournalAuth;
}

/** The header line of a run's journal. */
export function journalHeader(runId: string, auth?: JournalAuth): JournalHeader {
  return {
    runback_journal: JOURNAL_VERSION,
    run_id: runId,
    created_at: isoNow(),
    writer: '@runback/sdk',
    pid: process.pid,
    host: hostname(),
    ...(auth === undefined ? {} : { auth }),
  };
}

/**
 * Whether the process that wrote a journal may still be running (and appending): its header
 * names a pid on this host that is alive and is not this process. A pid can be reused, so true
 * means "may be", never "is".
 */
export function writerMayBeAlive(header: { pid?: unknown; host?: unknown }): boolean {
  const { pid, host } = header;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return false;
  if (host !== hostname() || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The default journal path of a record: `<out>.journal`. */
export function journalPathFor(out: string): string {
  return `${out}.journal`;
}

/** Checks a parsed header line. Returns an error message, or undefined when it is a header. */
export function headerProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'expected a JSON object header on line 1';
  }
  const header = value as Record<string, unknown>;
  if (header['runback_journal'] !== JOURNAL_VERSION) {
    return `expected "runback_journal": ${JOURNAL_VERSION} on line 1, got ${JSON.stringify(header['runback_journal']) ?? 'nothing'}`;
  }
  if (typeof header['run_id'] !== 'string' || header['run_id'] === '') {
    return 'expected a non-empty "run_id" in the header on line 1';
  }
  return authProblem(header['auth']);
}
