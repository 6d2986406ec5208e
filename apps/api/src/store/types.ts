// The one store interface the API runs on; kysely-store.ts implements it over SQLite and
// PostgreSQL. It knows rows and transactions, not the record format: chaining and sealing
// happen in runs/, inside the transaction the store opens.
import type { DialectName } from './migrations.js';
import type {
  ApiKeysTable,
  EventsTable,
  LogCheckpointsTable,
  LogLeavesTable,
  ProjectsTable,
  RunsTable,
} from './schema.js';

export type ProjectRow = ProjectsTable;
export type ApiKeyRow = ApiKeysTable;
export type RunRow = RunsTable;
export type EventRow = EventsTable;
export type LogLeafRow = LogLeavesTable;
export type LogCheckpointRow = LogCheckpointsTable;

/** An API key with its project's name, for listings. */
export interface ApiKeyListing extends ApiKeyRow {
  readonly project_name: string;
}

/** `GET /api/runs` filters; `after` is the keyset cursor (the last row of the previous page). */
export interface RunFilter {
  readonly name?: string | undefined;
  readonly status?: string | undefined;
  readonly startedAfter?: string | undefined;
  readonly startedBefore?: string | undefined;
  readonly after?: { readonly startedAt: string; readonly id: string } | undefined;
  readonly limit: number;
}

/** The first answer to a batch, kept for retries with the same idempotency key. */
export interface StoredBatch {
  readonly requestHash: string;
  readonly response: string;
}

/** What a write transaction on one locked run may do. */
export interface RunTransaction {
  /** The run's row, read under the lock. */
  readonly run: RunRow;
  findBatch(idempotencyKey: string): Promise<StoredBatch | undefined>;
  saveBatch(idempotencyKey: string, batch: StoredBatch, at: string): Promise<void>;
  insertEvents(rows: readonly EventRow[]): Promise<void>;
  updateRun(patch: Partial<Omit<RunRow, 'id' | 'project_id'>>): Promise<void>;
  /** The run's events ordered by `seq`, a page at a time (for sealing). */
  eventsBySeq(afterSeq: number, limit: number): Promise<EventRow[]>;
}

/** Reading the transparency log (leaves and checkpoints are never changed once written). */
export interface LogReader {
  /** The number of leaves. */
  logSize(): Promise<number>;
  /** The leaf of `runId`, if it is logged. */
  logLeafOf(runId: string): Promise<LogLeafRow | undefined>;
  /** Leaf hashes (hex) from `fromIndex` on, in leaf order, at most `limit`. */
  logLeafHashes(fromIndex: number, limit: number): Promise<string[]>;
  /** The checkpoint of `treeSize`, or the latest one when it is omitted. */
  logCheckpoint(treeSize?: number): Promise<LogCheckpointRow | undefined>;
}

/** What the log's one writer at a time may do. */
export interface LogTransaction extends LogReader {
  insertLeaf(row: LogLeafRow): Promise<void>;
  insertCheckpoint(row: LogCheckpointRow): Promise<void>;
}

export interface Store extends LogReader {
  readonly dialect: DialectName;
  /** Applies every migration not yet applied. */
  migrate(): Promise<void>;
  /** Whether the database answers and every migration is applied. */
  isReady(): Promise<boolean>;
  close(): Promise<void>;

  /** The project named `name`, created when missing. */
  ensureProject(name: string, id: string, at: string): Promise<ProjectRow>;
  insertApiKey(row: ApiKeyRow): Promise<void>;
  findApiKey(id: string): Promise<ApiKeyRow | undefined>;
  listApiKeys(projectName?: string): Promise<ApiKeyListing[]>;
  /** Marks a key revoked; false when there is no such key or it was already revoked. */
  revokeApiKey(id: string, at: string): Promise<boolean>;
  projectName(id: string): Promise<string | undefined>;

  /** Inserts a run and its first event in one transaction. */
  createRun(run: RunRow, first: EventRow): Promise<void>;
  /** The run, when it belongs to the project. */
  getRun(projectId: string, runId: string): Promise<RunRow | undefined>;
  listRuns(projectId: string, filter: RunFilter): Promise<RunRow[]>;
  /**
   * Runs `fn` in a write transaction holding the run's lock (SELECT … FOR UPDATE in
   * PostgreSQL; BEGIN IMMEDIATE, SQLite's single writer). Resolves to undefined when the run
   * does not exist in the project. A throw rolls everything back.
   */
  withRunLocked<T>(
    projectId: string,
    runId: string,
    fn: (tx: RunTransaction) => Promise<T>,
  ): Promise<T | undefined>;
  /**
   * Runs `fn` as the log's only writer: PostgreSQL locks log_leaves in SHARE ROW EXCLUSIVE
   * mode (one appender at a time across every API process; readers are not blocked), SQLite
   * takes its single write lock with BEGIN IMMEDIATE. A throw rolls everything back.
   */
  withLogLocked<T>(fn: (tx: LogTransaction) => Promise<T>): Promise<T>;
  /** The run's events in array order, a page at a time (for export). */
  eventsByPosition(runId: string, afterPosition: number, limit: number): Promise<EventRow[]>;
}

/** Whether a database error is a unique-constraint violation (a duplicate seq, say). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
