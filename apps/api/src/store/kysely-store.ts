// The Store over Kysely: one typed query layer for SQLite and PostgreSQL.
import { Migrator, sql, type Kysely } from 'kysely';
import { migrationNames, migrationProvider, type DialectName } from './migrations.js';
import type { Database } from './schema.js';
import type {
  ApiKeyListing,
  ApiKeyRow,
  EventRow,
  LogCheckpointRow,
  LogLeafRow,
  LogReader,
  LogTransaction,
  ProjectRow,
  RunFilter,
  RunRow,
  RunTransaction,
  Store,
  StoredBatch,
} from './types.js';

const INSERT_CHUNK = 500;

/** A Store over a Kysely instance of either dialect. */
export class KyselyStore implements Store {
  readonly dialect: DialectName;
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>, dialect: DialectName) {
    this.#db = db;
    this.dialect = dialect;
  }

  async migrate(): Promise<void> {
    const migrator = new Migrator({ db: this.#db, provider: migrationProvider(this.dialect) });
    const { error } = await migrator.migrateToLatest();
    if (error === undefined) return;
    throw error instanceof Error
      ? error
      : new Error('expected the migrations to apply, got a failure that is not an Error', {
          cause: error,
        });
  }

  async isReady(): Promise<boolean> {
    try {
      const migrator = new Migrator({ db: this.#db, provider: migrationProvider(this.dialect) });
      const applied = (await migrator.getMigrations())
        .filter((m) => m.executedAt !== undefined)
        .map((m) => m.name);
      return migrationNames(this.dialect).every((name) => applied.includes(name));
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.#db.destroy();
  }

  /**
   * A write transaction. SQLite: BEGIN IMMEDIATE takes the database's single write lock at
   * the start, so two processes never both read a run's head and then both write. PostgreSQL:
   * an ordinary transaction; callers lock the rows they advance with FOR UPDATE.
   */
  async #write<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    if (this.dialect === 'postgres') return this.#db.transaction().execute(fn);
    return this.#db.connection().execute(async (conn) => {
      await sql`BEGIN IMMEDIATE`.execute(conn);
      try {
        const result = await fn(conn);
        await sql`COMMIT`.execute(conn);
        return result;
      } catch (err) {
        await sql`ROLLBACK`.execute(conn);
        throw err;
      }
    });
  }

  async ensureProject(name: string, id: string, at: string): Promise<ProjectRow> {
    return this.#write(async (db) => {
      const found = await db
        .selectFrom('projects')
        .selectAll()
        .where('name', '=', name)
        .executeTakeFirst();
      if (found !== undefined) return found;
      const row: ProjectRow = { id, name, created_at: at };
      await db.insertInto('projects').values(row).execute();
      return row;
    });
  }

  async insertApiKey(row: ApiKeyRow): Promise<void> {
    await this.#db.insertInto('api_keys').values(row).execute();
  }

  async findApiKey(id: string): Promise<ApiKeyRow | undefined> {
    return this.#db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listApiKeys(projectName?: string): Promise<ApiKeyListing[]> {
    let query = this.#db
      .selectFrom('api_keys')
      .innerJoin('projects', 'projects.id', 'api_keys.project_id')
      .selectAll('api_keys')
      .select('projects.name as project_name')
      .orderBy('api_keys.created_at')
      .orderBy('api_keys.id');
    if (projectName !== undefined) query = query.where('projects.name', '=', projectName);
    return query.execute();
  }

  async revokeApiKey(id: string, at: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async projectName(id: string): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom('projects')
      .select('name')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.name;
  }

  async createRun(run: RunRow, first: EventRow): Promise<void> {
    await this.#write(async (db) => {
      await db.insertInto('runs').values(run).execute();
      await db.insertInto('events').values(first).execute();
    });
  }

  async getRun(projectId: string, runId: string): Promise<RunRow | undefined> {
    return this.#db
      .selectFrom('runs')
      .selectAll()
      .where('id', '=', runId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
  }

  async listRuns(projectId: string, filter: RunFilter): Promise<RunRow[]> {
    let query = this.#db.selectFrom('runs').selectAll().where('project_id', '=', projectId);
    if (filter.name !== undefined) query = query.where('name', '=', filter.name);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.startedAfter !== undefined)
      query = query.where('started_at', '>=', filter.startedAfter);
    if (filter.startedBefore !== undefined)
      query = query.where('started_at', '<', filter.startedBefore);
    const after = filter.after;
    if (after !== undefined) {
      // Newest first; the next page continues strictly after the cursor row.
      query = query.where((eb) =>
        eb.or([
          eb('started_at', '<', after.startedAt),
          eb.and([eb('started_at', '=', after.startedAt), eb('id', '<', after.id)]),
        ]),
      );
    }
    return query.orderBy('started_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  }

  async withRunLocked<T>(
    projectId: string,
    runId: string,
    fn: (tx: RunTransaction) => Promise<T>,
  ): Promise<T | undefined> {
    return this.#write(async (db) => {
      let query = db
        .selectFrom('runs')
        .selectAll()
        .where('id', '=', runId)
        .where('project_id', '=', projectId);
      if (this.dialect === 'postgres') query = query.forUpdate();
      const run = await query.executeTakeFirst();
      if (run === undefined) return undefined;
      return fn(transactionOn(db, run));
    });
  }

  withLogLocked<T>(fn: (tx: LogTransaction) => Promise<T>): Promise<T> {
    return this.#write(async (db) => {
      if (this.dialect === 'postgres')
        await sql`LOCK TABLE log_leaves IN SHARE ROW EXCLUSIVE MODE`.execute(db);
      return fn({
        ...logReaderOn(db),
        async insertLeaf(row: LogLeafRow): Promise<void> {
          await db.insertInto('log_leaves').values(row).execute();
        },
        async insertCheckpoint(row: LogCheckpointRow): Promise<void> {
          await db.insertInto('log_checkpoints').values(row).execute();
        },
      });
    });
  }

  logSize(): Promise<number> {
    return logReaderOn(this.#db).logSize();
  }

  logLeafOf(runId: string): Promise<LogLeafRow | undefined> {
    return logReaderOn(this.#db).logLeafOf(runId);
  }

  logLeafHashes(fromIndex: number, limit: number): Promise<string[]> {
    return logReaderOn(this.#db).logLeafHashes(fromIndex, limit);
  }

  logCheckpoint(treeSize?: number): Promise<LogCheckpointRow | undefined> {
    return logReaderOn(this.#db).logCheckpoint(treeSize);
  }

  async eventsByPosition(runId: string, afterPosition: number, limit: number): Promise<EventRow[]> {
    return this.#db
      .selectFrom('events')
      .selectAll()
      .where('run_id', '=', runId)
      .where('position', '>', afterPosition)
      .orderBy('position')
      .limit(limit)
      .execute();
  }
}

function logReaderOn(db: Kysely<Database>): LogReader {
  return {
    async logSize(): Promise<number> {
      // Leaf indexes are 0, 1, 2, … without gaps: the size is the highest one plus one.
      const row = await db
        .selectFrom('log_leaves')
        .select((eb) => eb.fn.max('leaf_index').as('top'))
        .executeTakeFirst();
      return row?.top === null || row?.top === undefined ? 0 : Number(row.top) + 1;
    },
    async logLeafOf(runId: string): Promise<LogLeafRow | undefined> {
      const row = await db
        .selectFrom('log_leaves')
        .selectAll()
        .where('run_id', '=', runId)
        .executeTakeFirst();
      return row === undefined ? undefined : { ...row, leaf_index: Number(row.leaf_index) };
    },
    async logLeafHashes(fromIndex: number, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('log_leaves')
        .select('leaf_hash')
        .where('leaf_index', '>=', fromIndex)
        .orderBy('leaf_index')
        .limit(limit)
        .execute();
      return rows.map((r) => r.leaf_hash);
    },
    async logCheckpoint(treeSize?: number): Promise<LogCheckpointRow | undefined> {
      let query = db.selectFrom('log_checkpoints').selectAll();
      query =
        treeSize === undefined
          ? query.orderBy('tree_size', 'desc').limit(1)
          : query.where('tree_size', '=', treeSize);
      const row = await query.executeTakeFirst();
      return row === undefined ? undefined : { ...row, tree_size: Number(row.tree_size) };
    },
  };
}

function transactionOn(db: Kysely<Database>, run: RunRow): RunTransaction {
  return {
    run,
    async findBatch(idempotencyKey: string): Promise<StoredBatch | undefined> {
      const row = await db
        .selectFrom('batches')
        .select(['request_hash', 'response'])
        .where('run_id', '=', run.id)
        .where('idempotency_key', '=', idempotencyKey)
        .executeTakeFirst();
      return row === undefined
        ? undefined
        : { requestHash: row.request_hash, response: row.response };
    },
    async saveBatch(idempotencyKey: string, batch: StoredBatch, at: string): Promise<void> {
      await db
        .insertInto('batches')
        .values({
          run_id: run.id,
          idempotency_key: idempotencyKey,
          request_hash: batch.requestHash,
          response: batch.response,
          created_at: at,
        })
        .execute();
    },
    async insertEvents(rows: readonly EventRow[]): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await db
          .insertInto('events')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .execute();
      }
    },
    async updateRun(patch): Promise<void> {
      await db.updateTable('runs').set(patch).where('id', '=', run.id).execute();
    },
    async eventsBySeq(afterSeq: number, limit: number): Promise<EventRow[]> {
      return db
        .selectFrom('events')
        .selectAll()
        .where('run_id', '=', run.id)
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(limit)
        .execute();
    },
  };
}
