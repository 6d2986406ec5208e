// The bytes a scripted run writes, pinned. The recording path is tuned for speed (snapshots,
// event texts, redaction, sealing); none of that may change a byte of a record: the same
// events, the program's member order inside values (docs/spec.md §7), the same hashes and the
// same redaction. The clock, the monotonic clock and the random ids are made deterministic, so
// the written file's SHA-256 is a fixed digest; a change to it is a change to the format.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type * as Registry from '../src/core/sdk-registry.js';

// A wall clock that often reads the same millisecond twice, as a fast agent's does.
const clock = vi.hoisted(() => {
  const state = { wall: 0, ticks: 0, mono: 0, ids: 0 };
  return {
    state,
    reset: () =>
      Object.assign(state, {
        wall: Date.UTC(2026, 0, 2, 3, 4, 5, 600),
        ticks: 0,
        mono: 1000,
        ids: 0,
      }),
  };
});

vi.mock('../src/core/sdk-registry.js', async (importOriginal) => {
  const real = await importOriginal<typeof Registry>();
  const s = clock.state;
  return {
    ...real,
    savedGlobals: Object.freeze({
      ...real.savedGlobals,
      dateNow: () => (s.ticks++ % 3 === 2 ? ++s.wall : s.wall),
      performanceNow: () => (s.mono += 0.2503),
      randomUUID: () => `00000000-0000-4000-8000-${String(++s.ids).padStart(12, '0')}`,
      random: () => 0.25,
    }),
  };
});

const { llmCall, startRun, tool } = await import('../src/index.js');
const { ED25519_SIGNER } = await import('./support/record.js');
const { tempDir } = await import('./support/temp-dir.js');

const SECRET = 'sk-abcdefghijklmnopqrstuvwxyz012345';

/** A fixed error: a real stack would hold this machine's paths. */
function failure(message: string): Error {
  const err = new TypeError(message);
  err.stack = `TypeError: ${message}\n    at scripted (agent.js:1:1)`;
  return err;
}

class Money {
  constructor(
    readonly amount: number,
    readonly currency: string,
  ) {}
  toJSON(): unknown {
    return { currency: this.currency, amount: this.amount };
  }
}

/** One agent: model and tool calls with unsorted members, secrets, failures, overlap. */
async function agent(): Promise<void> {
  const outcome = (text: string) => ({
    response: {
      text,
      finish_reason: 'stop',
      tool_calls: [],
      raw: { z: 1, a: { y: 2, b: [3, -0] } },
    },
    usage: { output_tokens: 5, input_tokens: 7, total_tokens: 12 },
    metadata: { response_id: 'r1', b: 1, a: 2 },
  });
  await llmCall(
    {
      provider: 'openai',
      modelId: 'gpt-4o-mini',
      request: {
        system: 'You are careful.\u2028 ünïcode \ud800 lone',
        messages: [
          { role: 'user', content: `my key is ${SECRET}, the token=abc123def` },
          { role: 'tool', content: '{"password":"hunter2","ok":1}' },
          { role: 'assistant', content: null, tool_calls: [{ name: 'f', id: 'c1' }] },
        ],
        params: { temperature: 0.1, max_tokens: 1e21, top_p: -0, stop: undefined },
        tools: [{ parameters: { type: 'object', properties: { b: {}, a: {} } }, name: 'f' }],
      },
      keyProjection: { drop: ['params'] },
      metadata: { zone: 'eu', attempt: 1 },
    },
    () => Promise.resolve('done'),
    outcome,
  );
  await tool('lookup', { ssn: '123-45-6789', applicant: 'A-1', when: new Date(0) }, (input) => ({
    applicant: input.applicant,
    score: 742,
    bureau: { name: 'mock', id: 7 },
  }));
  await tool('convert', new Money(12.5, 'EUR'), (m) => ({ ok: true, m }), {
    toolCallId: 'call_9',
    metadata: { y: 1, x: 'two' },
  });
  await tool('argv', ['run', '--token', 'abcdef', '-v'], (argv) => argv.length);
  await tool('numbers', { '2': 'b', '10': 'c', x: 1, '1': 'a' }, (v) => ({ ...v, '0': 'z' }));
  await expect(
    tool('fails', { a: 1 }, () => {
      throw failure('no such applicant');
    }),
  ).rejects.toThrow('no such applicant');
  await expect(
    llmCall(
      { provider: 'anthropic', modelId: 'claude', request: { messages: [] } },
      () => Promise.reject(failure('overloaded')),
      outcome,
    ),
  ).rejects.toThrow('overloaded');
  // Overlapping calls: the first to start ends last.
  let release = (): void => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await Promise.all([
    tool('slow', { n: 1 }, async () => {
      await gate;
      return { late: true };
    }),
    tool('fast', { n: 2 }, () => {
      release();
      return { early: true, authorization: 'Basic abc' };
    }),
  ]);
  await tool('empty', {}, () => undefined);
  await tool('text', 'plain "text"', (s) => `${s}!`);
}

async function recordedBytes(options: { journal?: boolean; signed?: boolean }): Promise<string> {
  const out = join(tempDir(), `run-${options.journal === true}-${options.signed === true}.json`);
  clock.reset();
  const run = startRun({
    name: 'golden',
    runId: 'run_00112233445566ff',
    input: { question: 'approve?', applicant: { name: 'Ada', id: 1 }, api_key: SECRET },
    metadata: { team: 'risk', env: 'test' },
    redact: { keys: ['ssn'] },
    out,
    ...(options.journal === true ? { journal: true } : {}),
    ...(options.signed === true ? { signer: ED25519_SIGNER } : {}),
  });
  await run.run(agent);
  await run.end({ output: { verdict: 'approve', at: new Date(86_400_000), scores: [1, 2] } });
  return readFileSync(out, 'utf8');
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the bytes of a scripted record', () => {
  it('are those pinned, kept in memory and journaled', async () => {
    const text = await recordedBytes({});
    expect(text).toContain('"input":{"ssn":"[REDACTED]","applicant":"A-1"');
    expect(text).toContain('"system":"You are careful.');
    expect(digest(text)).toBe('24d3367670140264999663928bcacb572e99f669223bf0d1bf20c70ef42f35b5');
    expect(digest(await recordedBytes({ journal: true }))).toBe(
      '8acb02ab29b499cf8d02e8af349bc74ed9fed8031fa6764aecdb85881c0f7db3',
    );
  });

  it('are those pinned when signed', async () => {
    expect(digest(await recordedBytes({ signed: true }))).toBe(
      'fff531cd5ccf7ebcea3d714b78fc67c41315abbb6b1885608520c4aa2e8f6eb6',
    );
  });
});
