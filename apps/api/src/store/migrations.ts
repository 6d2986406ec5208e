// The one migration history of both databases. Table definitions go through Kysely's schema
// builder; the append-only triggers are the one place where the two SQL dialects differ.
import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

async function createTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createTable('runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .addColumn('event_count', 'integer', (c) => c.notNull())
    .addColumn('next_seq', 'integer', (c) => c.notNull())
    .addColumn('head_hash', 'text', (c) => c.notNull())
    .addColumn('sealed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('manifest', 'text')
    .addColumn('summary', 'text')
    .execute();
  await db.schema
    .createIndex('runs_project_started')
    .on('runs')
    .columns(['project_id', 'started_at', 'id'])
    .execute();
  await db.schema
    .createTable('events')
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('events_pk', ['run_id', 'position'])
    .addUniqueConstraint('events_seq_unique', ['run_id', 'seq'])
    .execute();
  await db.schema
    .createTable('batches')
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('batches_pk', ['run_id', 'idempotency_key'])
    .execute();
}

/** The database itself refuses UPDATE and DELETE on stored events: they are append-only. */
async function appendOnlyEvents(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql
      .raw(
        `CREATE FUNCTION runback_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'events are append-only: % refused', TG_OP; END $$`,
      )
      .execute(db);
  }
  await appendOnly(db, dialect, 'events', 'events', 'runback_events_append_only');
}

/**
 * Triggers refusing UPDATE, DELETE (and on PostgreSQL TRUNCATE) on `table`, named
 * `<prefix>_append_only…`; on PostgreSQL they call the plpgsql function `fn`.
 */
async function appendOnly(
  db: Kysely<unknown>,
  dialect: DialectName,
  table: string,
  prefix: string,
  fn: string,
): Promise<void> {
  if (dialect === 'sqlite') {
    for (const op of ['UPDATE', 'DELETE']) {
      await sql
        .raw(
          `CREATE TRIGGER ${prefix}_append_only_${op.toLowerCase()} BEFORE ${op} ON ${table} ` +
            `BEGIN SELECT RAISE(ABORT, '${table} are append-only: ${op} refused'); END`,
        )
        .execute(db);
    }
    return;
  }
  await sql
    .raw(
      `CREATE TRIGGER ${prefix}_append_only BEFORE UPDATE OR DELETE ON ${table}
       FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER ${prefix}_no_truncate BEFORE TRUNCATE ON ${table}
       FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    )
    .execute(db);
}

/** The log's leaves and checkpoints are append-only like the events. */
async function appendOnlyLog(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql
      .raw(
        `CREATE FUNCTION runback_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION '% are append-only: % refused', TG_TABLE_NAME, TG_OP; END $$`,
      )
      .execute(db);
  }
  await appendOnly(db, dialect, 'log_leaves', 'log_leaves', 'runback_log_append_only');
  await appendOnly(db, dialect, 'log_checkpoints', 'log_checkpoints', 'runback_log_append_only');
}

/** The transparency log's leaves and checkpoints: one row per leaf and per tree size. */
async function createLogTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('log_leaves')
    .addColumn('leaf_index', 'integer', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull().unique().references('runs.id'))
    .addColumn('content_digest', 'text', (c) => c.notNull())
    .addColumn('cassette_digest', 'text', (c) => c.notNull())
    .addColumn('leaf_hash', 'text', (c) => c.notNull())
    .addColumn('logged_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('log_checkpoints')
    .addColumn('tree_size', 'integer', (c) => c.primaryKey())
    .addColumn('root_hash', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

/** The migrations, in order, for one dialect. */
export function migrationsFor(dialect: DialectName): Record<string, Migration> {
  return {
    '0001_initial': {
      async up(db) {
        await createTables(db);
        await appendOnlyEvents(db, dialect);
      },
    },
    '0002_transparency_log': {
      async up(db) {
        await createLogTables(db);
        await appendOnlyLog(db, dialect);
      },
    },
  };
}

/** A Kysely migration provider over {@link migrationsFor}. */
export function migrationProvider(dialect: DialectName): MigrationProvider {
  return { getMigrations: () => Promise.resolve(migrationsFor(dialect)) };
}

/** Names of every migration, newest last (readiness compares the applied ones with these). */
export function migrationNames(dialect: DialectName): string[] {
  return Object.keys(migrationsFor(dialect)).sort();
}
