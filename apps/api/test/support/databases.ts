// The databases the store suite runs against: a fresh SQLite file, and a fresh schema in the
// PostgreSQL at 127.0.0.1:5432 (database `test`, trust auth). With CI=true an unreachable
// PostgreSQL is a failure, never a skip; outside CI the PostgreSQL cases say why they cannot run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore, type StoreLocation } from '../../src/store/open.js';
import type { KyselyStore } from '../../src/store/kysely-store.js';

/** The PostgreSQL the tests use; RUNBACK_TEST_DATABASE_URL overrides. */
export const PG_URL =
  process.env['RUNBACK_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

const inCI = process.env['CI'] === 'true' || process.env['CI'] === '1';

/** Null when PostgreSQL answers; otherwise why not. Throws in CI. */
export async function postgresUnavailable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    const why = `PostgreSQL at ${PG_URL} is unreachable: ${(err as Error).message}`;
    if (inCI) throw new Error(`${why} (CI requires it; .ci/run starts it)`);
    return why;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export type DatabaseKind = 'sqlite' | 'postgres';

/** The databases a suite runs on: both, or SQLite alone (saying why) without PostgreSQL. */
export async function databaseKinds(suite: string): Promise<DatabaseKind[]> {
  const missing = await postgresUnavailable();
  if (missing !== null) console.warn(`${suite}: PostgreSQL cases cannot run: ${missing}`);
  return missing === null ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** A store on a database of its own, and how to remove it. */
export interface TestDatabase {
  readonly kind: DatabaseKind;
  readonly location: StoreLocation;
  readonly store: KyselyStore;
  /** Runs raw SQL on its own connection, around the store (for the trigger tests). */
  raw(statement: string): Promise<void>;
  cleanup(): Promise<void>;
}

function uniqueName(): string {
  return `rbt_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/** Creates an empty PostgreSQL schema; returns its name. */
export async function createSchema(): Promise<string> {
  const schema = uniqueName();
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  return schema;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

export async function testDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'runback-api-'));
    const location: StoreLocation = { kind: 'sqlite', file: join(dir, 'runback.sqlite') };
    const store = openStore(location);
    await store.migrate();
    return {
      kind,
      location,
      store,
      async raw(statement) {
        const { default: SQLite } = await import('better-sqlite3');
        const db = new SQLite(location.file);
        try {
          db.exec(statement);
        } finally {
          db.close();
        }
      },
      async cleanup() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = await createSchema();
  const location: StoreLocation = { kind: 'postgres', url: PG_URL, schema };
  const store = openStore(location);
  await store.migrate();
  return {
    kind,
    location,
    store,
    async raw(statement) {
      const client = new pg.Client({
        connectionString: PG_URL,
        options: `-c search_path=${schema}`,
      });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    },
    async cleanup() {
      await store.close();
      await dropSchema(schema);
    },
  };
}
