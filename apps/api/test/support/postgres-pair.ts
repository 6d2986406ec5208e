// Two API processes (the built server) on one fresh PostgreSQL schema with the same signing
// key, started one after the other (the second finds the migrations applied) for the tests of
// one file, and stopped after them: both must exit 0 on SIGTERM.
import { afterAll, beforeAll, expect } from 'vitest';
import { ADMIN_TOKEN, newSigningKeyPem } from './app.js';
import { createSchema, dropSchema, PG_URL } from './databases.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

export interface PostgresPair {
  /** The two servers, once started. */
  readonly servers: readonly [ServerProcess, ServerProcess];
  /** The schema both use. */
  readonly schema: string;
}

export function postgresPair(): PostgresPair {
  const pair = { servers: [] as ServerProcess[], schema: '' };
  beforeAll(async () => {
    pair.schema = await createSchema();
    const env = {
      DATABASE_URL: PG_URL,
      DATABASE_SCHEMA: pair.schema,
      RUNBACK_ED25519_PRIVATE_KEY: newSigningKeyPem(),
      RUNBACK_ADMIN_TOKEN: ADMIN_TOKEN,
      RUNBACK_DATA_DIR: '/nonexistent-runback-data',
    };
    pair.servers.push(await startServerProcess(env));
    pair.servers.push(await startServerProcess(env));
  });
  afterAll(async () => {
    const codes = await Promise.all(pair.servers.map((s) => s.stop()));
    pair.servers = [];
    if (pair.schema !== '') await dropSchema(pair.schema);
    expect(codes).toEqual([0, 0]);
  });
  return pair as unknown as PostgresPair;
}
