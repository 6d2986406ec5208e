// Two API processes on one PostgreSQL, 50 concurrent writers appending to the same 5 runs
// through both: every export verifies with the published key, counts are exact, and no event
// is lost or duplicated, retries included.
import { verifyJson } from '@runback/verify';
import { describe, expect, it } from 'vitest';
import { toolEvent } from './support/app.js';
import { postgresUnavailable } from './support/databases.js';
import { postgresPair } from './support/postgres-pair.js';
import { issueToken } from './support/server-process.js';
import type { ServerProcess } from './support/server-process.js';

const pgMissing = await postgresUnavailable();
if (pgMissing !== null) console.warn(`multi-process test cannot run: ${pgMissing}`);

const RUNS = 5;
const WRITERS = 50;
const BATCHES = 8;
const PER_BATCH = 5;

describe.runIf(pgMissing === null)('two API processes on one PostgreSQL', () => {
  const pair = postgresPair();

  it('keeps every event exactly once and every export verifies', async () => {
    const [a, b] = pair.servers;
    const token = await issueToken(a, 'load');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const runIds: string[] = [];
    for (let r = 0; r < RUNS; r++) {
      const res = await fetch(`${(r % 2 === 0 ? a : b).url}/api/runs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `load-${r}` }),
      });
      runIds.push(((await res.json()) as { run_id: string }).run_id);
    }

    const writer = async (w: number) => {
      const runId = runIds[w % RUNS] as string;
      for (let batch = 0; batch < BATCHES; batch++) {
        const server = (w + batch) % 2 === 0 ? a : b;
        const events = Array.from({ length: PER_BATCH }, (_, i) =>
          toolEvent(i, { input: { w, batch, i } }),
        );
        const send = (to: ServerProcess) =>
          fetch(`${to.url}/api/runs/${runId}/events`, {
            method: 'POST',
            headers: { ...headers, 'idempotency-key': `w${w}-b${batch}` },
            body: JSON.stringify({ events }),
          });
        const first = await send(server);
        expect(first.status).toBe(201);
        // Every third batch is retried through the other instance: applied once, same answer.
        if (batch % 3 === 0) {
          const retry = await send(server === a ? b : a);
          expect(retry.status).toBe(200);
          expect(await retry.json()).toEqual(await first.json());
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));

    const pem = await (await fetch(`${b.url}/.well-known/runback-audit-key.pem`)).text();
    for (const [r, runId] of runIds.entries()) {
      const fin = await fetch(`${(r % 2 === 0 ? b : a).url}/api/runs/${runId}/finish`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ status: 'success' }),
      });
      expect(fin.status).toBe(200);
      const text = await (
        await fetch(`${(r % 2 === 0 ? a : b).url}/api/runs/${runId}/export`, { headers })
      ).text();
      expect(verifyJson(text, { pinned: [pem] }).verdict).toBe('valid');
      const record = JSON.parse(text) as {
        events: { seq: number; type: string; input?: { w: number; batch: number; i: number } }[];
      };
      const writersOfRun = WRITERS / RUNS;
      expect(record.events).toHaveLength(writersOfRun * BATCHES * PER_BATCH + 2);
      expect(new Set(record.events.map((e) => e.seq)).size).toBe(record.events.length);
      const seen = record.events
        .filter((e) => e.type === 'tool')
        .map((e) => `${e.input!.w}/${e.input!.batch}/${e.input!.i}`);
      expect(new Set(seen).size).toBe(seen.length);
      const expected = new Set<string>();
      for (let w = r; w < WRITERS; w += RUNS)
        for (let batch = 0; batch < BATCHES; batch++)
          for (let i = 0; i < PER_BATCH; i++) expected.add(`${w}/${batch}/${i}`);
      expect(new Set(seen)).toEqual(expected);
    }
  });
});
