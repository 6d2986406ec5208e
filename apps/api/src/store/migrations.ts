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
  if (dialect === 'sqlite') {
    for (const op of ['UPDATE', 'DELETE']) {
      await sql
        .raw(
          `CREATE TRIGGER events_append_only_${op.toLowerCase()} BEFORE ${op} ON events ` +
            `BEGIN SELECT RAISE(ABORT, 'events are append-only: ${op} refused'); END`,
        )
        .execute(db);
    }
    return;
  }
  await sql
    .raw(
      `CREATE FUNCTION runback_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'events are append-only: % refused', TG_OP; END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
       FOR EACH ROW EXECUTE FUNCTION runback_events_append_only()`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
       FOR EACH STATEMENT EXECUTE FUNCTION runback_events_append_only()`,
    )
    .execute(db);
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
  };
}

/** A Kysely migration provider over {@link migrationsFor}. */
export function migrationProvider(dialect: DialectName): MigrationProvider {
  return { getMigrations: async () => migrationsFor(dialect) };
}

/** Names of every migration, newest last (readiness compares the applied ones with these). */
export function migrationNames(dialect: DialectName): string[] {
  return Object.keys(migrationsFor(dialect)).sort();
}
