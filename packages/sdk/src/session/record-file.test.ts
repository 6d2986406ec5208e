import { describe, expect, it } from 'vitest';
import { IncrementalSealer } from './sealer.js';
import { ED25519_SIGNER, HMAC_SIGNER, expectValid, verifyText } from '../../test/support/record.js';
import { RECORD_SCHEMA, manifestForDigests, recordPieces, runSummary } from './record-file.js';

const START = {
  run_id: 'run_asm',
  name: 'asm',
  ts_start: '2026-01-01T00:00:00.000Z',
  ts_end: '2026-01-01T00:00:00.000Z',
  status: 'running' as const,
};

async function text(pieces: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const piece of pieces) out += piece;
  return out;
}

describe('record assembly', () => {
  it('seals, signs and lays out a record that verifies, one event per line', async () => {
    const sealer = new IncrementalSealer();
    const events = [
      {
        ...START,
        schema_version: 1,
        span_id: 'run',
        parent_span_id: null,
        seq: 0,
        type: 'run',
        phase: 'start',
        input: null,
        output: null,
        error: null,
      },
      {
        ...START,
        schema_version: 1,
        span_id: 'run',
        parent_span_id: null,
        seq: 1,
        type: 'run',
        phase: 'end',
        status: 'success',
        input: null,
        output: 7,
        error: null,
      },
    ];
    const texts = events.map((event) => sealer.add(event));
    for (const signer of [ED25519_SIGNER, HMAC_SIGNER]) {
      const manifest = manifestForDigests(
        'run_asm',
        sealer.finish(),
        '2026-01-01T00:00:01.000Z',
        signer,
      );
      const written = await text(
        recordPieces(manifest, runSummary(START, events[1] as never), texts),
      );
      expect(written.split('\n')).toEqual([
        expect.stringContaining(`"$schema":"${RECORD_SCHEMA}"`),
        `${texts[0]},`,
        texts[1],
        ']}',
        '',
      ]);
      const record = expectValid(written);
      expect(record.run).toEqual({
        run_id: 'run_asm',
        name: 'asm',
        status: 'success',
        started_at: START.ts_start,
        ended_at: START.ts_end,
        output: 7,
        error: null,
      });
    }
  });

  it('a record with no events is still well-formed JSON with the empty digests', async () => {
    const manifest = manifestForDigests(
      'run_asm',
      new IncrementalSealer().finish(),
      '2026-01-01T00:00:01.000Z',
      undefined,
    );
    const written = await text(recordPieces(manifest, runSummary(START, undefined), []));
    const record = JSON.parse(written) as {
      events: unknown[];
      run: unknown;
      manifest: Record<string, unknown>;
    };
    expect(record.events).toEqual([]);
    expect(record.run).toEqual({
      run_id: 'run_asm',
      name: 'asm',
      status: 'running',
      started_at: START.ts_start,
    });
    expect(manifest).toMatchObject({ event_count: 0, signed: false, replay: { entry_count: 0 } });
    expect(manifest.content_digest).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(verifyText(written).integrity).toBe(true);
  });
});
