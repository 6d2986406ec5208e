import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { ED25519_KEYS, ED25519_SIGNER, TRUST } from '../../test/support/record.js';
import { generateEd25519KeyPair } from '@runback/sign';
import { record } from './recorder.js';
import { llmCall, type LlmCallOutcome } from '../hooks/spans/llm.js';
import { tool } from '../hooks/spans/tool.js';
import { replay } from './replay.js';
import { ReplayMissError } from '../session/replay-source.js';

interface Plan {
  readonly question?: string;
  readonly extraLookup?: boolean;
}

const counters = { tool: 0, model: 0, fetch: 0 };

/** An agent reading the clock and randomness, calling a model, a tool and an HTTP service. */
function agent(url: string, plan: Plan = {}) {
  return async (input: unknown) => {
    const { applicant } = input as { applicant: string };
    const at = Date.now();
    const draw = Math.random();
    const answer = await llmCall(
      {
        provider: 'openai',
        modelId: 'gpt-4o-mini',
        request: { messages: [{ role: 'user', content: plan.question ?? `score ${applicant}?` }] },
      },
      async () => {
        counters.model++;
        return { text: 'look it up' };
      },
      (r): LlmCallOutcome => ({
        response: { text: r.text, finish_reason: 'stop', tool_calls: [] },
      }),
      (recorded) => ({ text: recorded.response.text ?? '' }),
    );
    const score = await tool('get_score', { applicant }, () => {
      counters.tool++;
      return { score: 742 };
    });
    if (plan.extraLookup) await tool('get_score', { applicant: 'other' }, () => ({ score: 1 }));
    const rate = (await (await fetch(`${url}/rate`)).json()) as { rate: number };
    return { answer: answer.text, score: score.score, rate: rate.rate, at, draw };
  };
}

/** Records the agent against a live rate service, then closes the service. */
async function baseline(): Promise<{ path: string; url: string; output: unknown }> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    counters.fetch++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ rate: 0.042 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const path = join(tempDir(), 'baseline.json');
  const { output } = await record(
    {
      name: 'replay-test',
      input: { applicant: 'A-1' },
      out: path,
      signer: ED25519_SIGNER,
      captureEnv: true,
    },
    () => agent(url)({ applicant: 'A-1' }),
  );
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  return { path, url, output };
}

describe('replay', () => {
  it('reproduces a record with nothing live: same output, clock and randomness, no calls made', async () => {
    const { path, url, output } = await baseline();
    const before = { ...counters };
    const out = join(tempDir(), 'replay.json');
    const result = await replay({ path }, agent(url), {
      trust: TRUST,
      out,
      signer: ED25519_SIGNER,
    });
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual(output); // Date.now() and Math.random() served from the record
    expect(counters).toEqual(before);
    expect(result.report).toMatchObject({
      status: 'reproduced',
      verdict: 'valid',
      cassetteMatches: true,
      outputMatches: true,
      divergence: null,
      misses: [],
      unserved: 0,
    });
    const recorded = JSON.parse(readFileSync(path, 'utf8')) as {
      manifest: Record<string, unknown>;
    };
    const replayed = JSON.parse(readFileSync(out, 'utf8')) as {
      manifest: { replay: { cassette_digest: string } };
      events: { metadata?: { replay_of?: unknown } }[];
    };
    expect(replayed.manifest.replay.cassette_digest).toBe(
      (recorded.manifest['replay'] as { cassette_digest: string }).cassette_digest,
    );
    expect(replayed.events[0]?.metadata?.replay_of).toEqual({
      run_id: recorded.manifest['run_id'],
      content_digest: recorded.manifest['content_digest'],
      cassette_digest: replayed.manifest.replay.cassette_digest,
      mode: 'strict',
    });
  });

  it('strict: a changed request fails at that call with the nearest recorded call and the diff', async () => {
    const { path, url } = await baseline();
    const result = await replay({ path }, agent(url, { question: 'score quickly?' }), {
      trust: TRUST,
    });
    expect(result.error).toBeInstanceOf(ReplayMissError);
    const miss = (result.error as ReplayMissError).miss;
    expect(miss).toMatchObject({
      kind: 'llm',
      name: 'gpt-4o-mini',
      mode: 'strict',
      wentLive: false,
    });
    expect(miss.nearest?.seq).toBeGreaterThan(0);
    expect(miss.inputDiff).toEqual([
      { op: 'replace', path: '/messages/0/content', before: 'score A-1?', after: 'score quickly?' },
    ]);
    expect(result.report.status).toBe('diverged');
    expect(result.report.divergence).toMatchObject({
      kind: 'llm',
      reason: 'miss',
      recordedSeq: miss.nearest?.seq,
      input: miss.inputDiff,
    });
  });

  it('ordered: a changed request is served by position, completes, and reports the divergence', async () => {
    const { path, url, output } = await baseline();
    const result = await replay({ path }, agent(url, { question: 'score quickly?' }), {
      mode: 'ordered',
    });
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual(output);
    expect(result.report.verdict).toBe('unverified');
    expect(result.report.outputMatches).toBe(true);
    expect(result.report.status).toBe('diverged');
    expect(result.report.divergence).toMatchObject({ call: 3, kind: 'llm', reason: 'request' });
  });

  it('ordered: one call more than the record holds fails, naming it', async () => {
    const { path, url } = await baseline();
    const result = await replay({ path }, agent(url, { extraLookup: true }), { mode: 'ordered' });
    expect(result.error).toBeInstanceOf(ReplayMissError);
    expect(String(result.error)).toContain('one more tool call "get_score" than the record holds');
  });

  it('live-on-miss: a new call goes live and is recorded; matched calls are still served', async () => {
    const { path, url } = await baseline();
    const before = { ...counters };
    const result = await replay({ path }, agent(url, { extraLookup: true }), {
      mode: 'live-on-miss',
    });
    expect(result.error).toBeUndefined();
    expect(counters.model).toBe(before.model);
    expect(counters.fetch).toBe(before.fetch);
    expect(result.report.misses).toEqual([
      expect.objectContaining({ kind: 'tool', wentLive: true }),
    ]);
    expect(result.report.divergence).toMatchObject({ kind: 'tool', reason: 'extra' });
  });

  it('refuses an edited record, and checks its arguments', async () => {
    const { path, url } = await baseline();
    const edited = join(tempDir(), 'edited.json');
    writeFileSync(edited, readFileSync(path, 'utf8').replace('"score":742', '"score":799'));
    await expect(replay({ path: edited }, agent(url))).rejects.toMatchObject({
      code: 'REPLAY_RECORD_INVALID',
    });
    await expect(replay({ path }, agent(url), { mode: 'never' as never })).rejects.toThrow(
      TypeError,
    );
    await expect(replay({ path }, 'agent' as never)).rejects.toThrow(TypeError);
    // A record given as text or parsed JSON replays the same.
    const text = readFileSync(path, 'utf8');
    expect(
      (await replay(text, agent(url), { trust: { pinned: [ED25519_KEYS.publicKey] } })).report
        .status,
    ).toBe('reproduced');
    expect((await replay(JSON.parse(text) as object, agent(url))).report.status).toBe('reproduced');
  });

  it('refuses a record not valid under the trust it was given, unless allowUnverified', async () => {
    const { path, url } = await baseline();
    const other = generateEd25519KeyPair(new Uint8Array(32).fill(9));
    // Signed by ED25519_KEYS, but the trust names another key.
    await expect(
      replay({ path }, agent(url), { trust: { pinned: [other.publicKey] } }),
    ).rejects.toMatchObject({ code: 'REPLAY_RECORD_UNTRUSTED' });
    // An unsigned record under a trust that names a key.
    const unsigned = join(tempDir(), 'unsigned.json');
    await record({ name: 'unsigned', input: { applicant: 'A-1' }, out: unsigned }, () => 1);
    await expect(replay({ path: unsigned }, () => 1, { trust: TRUST })).rejects.toThrow(
      /expected a record valid under the given trust, got unverified \(it is unsigned\)/,
    );
    // allowUnverified lets an intact record through, reported as what it is.
    const allowed = await replay({ path: unsigned }, () => 1, {
      trust: TRUST,
      allowUnverified: true,
    });
    expect(allowed.report).toMatchObject({ status: 'reproduced', verdict: 'unverified' });
    // ...but never an edited one.
    const edited = join(tempDir(), 'edited.json');
    writeFileSync(edited, readFileSync(path, 'utf8').replace('"score":742', '"score":799'));
    await expect(
      replay({ path: edited }, agent(url), { trust: TRUST, allowUnverified: true }),
    ).rejects.toMatchObject({ code: 'REPLAY_RECORD_INVALID' });
  });
});
