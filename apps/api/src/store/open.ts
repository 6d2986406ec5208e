// Opening the store: embedded SQLite under the data directory by default, PostgreSQL when a
// connection string is given (several API instances share one database).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { KyselyStore } from './kysely-store.js';
import type { Database } from './schema.js';

/** Where the store lives. */
export type StoreLocation =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string | undefined };

/** The location the environment asks for: DATABASE_URL, else `<dataDir>/runback.sqlite`. */
export function storeLocationFrom(
  env: Readonly<Record<string, string | undefined>>,
  dataDir: string,
): StoreLocation {
  const url = env['DATABASE_URL'];
  if (url !== undefined && url !== '')
    return { kind: 'postgres', url, schema: env['DATABASE_SCHEMA'] };
  return { kind: 'sqlite', file: join(dataDir, 'runback.sqlite') };
}

/** Opens (and creates, for SQLite) the store. Migrations are applied by `store.migrate()`. */
export function openStore(location: StoreLocation): KyselyStore {
  if (location.kind === 'sqlite') {
    if (location.file !== ':memory:') mkdirSync(join(location.file, '..'), { recursive: true });
    const database = new SQLite(location.file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 10000');
    database.pragma('foreign_keys = ON');
    return new KyselyStore(
      new Kysely<Database>({ dialect: new SqliteDialect({ database }) }),
      'sqlite',
    );
  }
  const schema = location.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new TypeError(
      `expected DATABASE_SCHEMA to be a lowercase SQL identifier, got ${JSON.stringify(schema)}`,
    );
  }
  const pool = new pg.Pool({
    connectionString: location.url,
    max: 10,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  return new KyselyStore(
    new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
    'postgres',
  );
}
