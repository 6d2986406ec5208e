// Two API processes on one PostgreSQL append to the one transparency log at the same time:
// runs finished concurrently through both, and the same runs exported through both at once.
// Every leaf index and tree size is taken exactly once, each run has one leaf, every stored
// checkpoint is of its own size, and every proof verifies against the latest checkpoint.
import { publicKeyFromPem } from '@runback/sign';
import {
  readCheckpoint,
  recordHeadOf,
  verifyConsistencyProof,
  verifyInclusionProof,
} from '@runback/tlog';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { toolEvent } from './support/app.js';
import { PG_URL, postgresUnavailable } from './support/databases.js';
import { postgresPair } from './support/postgres-pair.js';
import { issueToken } from './support/server-process.js';

const pgMissing = await postgresUnavailable();
if (pgMissing !== null) console.warn(`log multi-process test cannot run: ${pgMissing}`);

const RUNS = 24;

describe.runIf(pgMissing === null)('one transparency log, two API processes on PostgreSQL', () => {
  const pair = postgresPair();

  it('serialises appends: unique, gapless leaf indexes and tree sizes, every proof valid', async () => {
    const [a, b] = pair.servers;
    const token = await issueToken(a, 'log-load');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const via = (i: number) => (i % 2 === 0 ? a : b);

    const runIds: string[] = [];
    for (let r = 0; r < RUNS; r++) {
      const started = await fetch(`${via(r).url}/api/runs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `log-${r}` }),
      });
      const runId = ((await started.json()) as { run_id: string }).run_id;
      const appended = await fetch(`${via(r + 1).url}/api/runs/${runId}/events`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': `k${r}` },
        body: JSON.stringify({ events: [toolEvent(r)] }),
      });
      expect(appended.status).toBe(201);
      runIds.push(runId);
    }
    // Every run finished at once, alternating processes; each finish appends to the log.
    const finishes = await Promise.all(
      runIds.map((runId, r) =>
        fetch(`${via(r).url}/api/runs/${runId}/finish`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ status: 'success' }),
        }),
      ),
    );
    expect(finishes.map((f) => f.status)).toEqual(runIds.map(() => 200));
    // The same runs exported through both processes at once: nothing more is appended.
    const exports = await Promise.all(
      runIds.flatMap((runId) =>
        [a, b].map(async (s) => {
          const res = await fetch(`${s.url}/api/runs/${runId}/export`, { headers });
          expect(res.status).toBe(200);
          return res.text();
        }),
      ),
    );

    const client = new pg.Client({
      connectionString: PG_URL,
      options: `-c search_path=${pair.schema}`,
    });
    await client.connect();
    try {
      const leaves = await client.query<{ leaf_index: number; run_id: string }>(
        'SELECT leaf_index, run_id FROM log_leaves ORDER BY leaf_index',
      );
      expect(leaves.rows.map((r) => Number(r.leaf_index))).toEqual(runIds.map((_, i) => i));
      expect(new Set(leaves.rows.map((r) => r.run_id))).toEqual(new Set(runIds));
      const sizes = await client.query<{ tree_size: number }>(
        'SELECT tree_size FROM log_checkpoints ORDER BY tree_size',
      );
      expect(sizes.rows.map((r) => Number(r.tree_size))).toEqual(runIds.map((_, i) => i + 1));
    } finally {
      await client.end();
    }

    const logKey = publicKeyFromPem(
      await (await fetch(`${b.url}/.well-known/runback-audit-key.pem`)).text(),
    );
    const latest = readCheckpoint(await (await fetch(`${a.url}/api/log/checkpoint`)).text(), {
      logKey,
    });
    expect(latest.ok && latest.checkpoint.size).toBe(RUNS);
    for (const [r, runId] of runIds.entries()) {
      const proof: unknown = await (
        await fetch(`${via(r + 1).url}/api/log/proof/${runId}`, { headers })
      ).json();
      const head = recordHeadOf(JSON.parse(exports[2 * r] as string));
      expect(verifyInclusionProof(proof, { logKey, expectHead: head })).toMatchObject({
        ok: true,
        checkpoint: { size: RUNS },
      });
    }
    for (let from = 1; from <= RUNS; from += 5) {
      const doc: unknown = await (
        await fetch(`${via(from).url}/api/log/consistency?from=${from}`)
      ).json();
      expect(verifyConsistencyProof(doc, { logKey }).ok).toBe(true);
    }
  });
});
