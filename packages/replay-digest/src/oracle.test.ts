import { EMPTY_SHA256, canonical, canonicalOrder, sha256Hex } from '@runback/canonical';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CassetteBuilder, cassetteDigest, cassetteStep, seqOrder } from './cassette.js';
import { ReplayDigestError } from './errors.js';
import { fetchKey, llmKey, oracleEntryOf, oracleEntryText, toolKey } from './oracle-entry.js';
import type { KnownMemberTexts } from './oracle-entry.js';

const llm = {
  seq: 1,
  type: 'llm',
  model: { provider: 'openai', model_id: 'gpt-4o' },
  request: { messages: [{ role: 'user', content: 'hi' }], params: { request_id: 'x' } },
  response: { text: 'hello', finish_reason: 'stop' },
  key_projection: { drop: ['params.request_id'] },
};
const tool = {
  seq: 2,
  type: 'tool',
  tool_name: 'credit_score',
  input: { ssn: '***' },
  output: null,
  error: { name: 'Timeout', message: 'slow' },
};
const env = { seq: 3, type: 'env', kind: 'now', key: 'now', output: 1765000000000 };
const run = { seq: 0, type: 'run', phase: 'start' };

describe('oracleEntryOf', () => {
  it('keys llm calls by model and projected request, output = response', () => {
    expect(oracleEntryOf(llm)).toEqual({
      kind: 'llm',
      key: sha256Hex(
        'llm:gpt-4o:' + canonical({ messages: [{ role: 'user', content: 'hi' }], params: {} }),
      ),
      output: llm.response,
    });
  });

  it('keys tool calls by name and input, output = {error} when output is null', () => {
    expect(oracleEntryOf(tool)).toEqual({
      kind: 'tool',
      key: sha256Hex('tool:credit_score:{"ssn":"***"}'),
      output: { error: tool.error },
    });
    expect(toolKey('t', undefined)).toBe(sha256Hex('tool:t:null'));
  });

  it('takes env entries as recorded', () => {
    expect(oracleEntryOf(env)).toEqual({ kind: 'now', key: 'now', output: 1765000000000 });
  });

  it('gives run, reasoning and unknown types no entry', () => {
    for (const e of [run, { type: 'reasoning', text: 't' }, { type: 'custom' }, null, 3, []]) {
      expect(oracleEntryOf(e)).toBeNull();
    }
  });

  it('refuses oracle events without their key material', () => {
    expect(() => oracleEntryOf({ type: 'llm', model: {} })).toThrow(
      /expected llm event model.model_id to be a string, got nothing/,
    );
    expect(() => oracleEntryOf({ type: 'tool', tool_name: 3 })).toThrow(ReplayDigestError);
    expect(() => oracleEntryOf({ type: 'env', kind: 'now' })).toThrow(
      /expected env event key to be a string/,
    );
  });

  it('keys fetches by method, url and body digest', () => {
    expect(fetchKey('get', 'https://x.test/a')).toBe(
      sha256Hex('fetch:GET:https://x.test/a:' + EMPTY_SHA256),
    );
    expect(fetchKey('POST', 'u', '{"a":1}')).toBe(
      sha256Hex('fetch:POST:u:' + sha256Hex('{"a":1}')),
    );
    expect(fetchKey('POST', 'u', new TextEncoder().encode('é'))).toBe(fetchKey('POST', 'u', 'é'));
    expect(llmKey('m', { a: 1 })).toBe(sha256Hex('llm:m:{"a":1}'));
  });
});

describe('cassetteDigest', () => {
  it('is sha256("") with no oracle entries', () => {
    expect(cassetteDigest([])).toEqual({ digest: EMPTY_SHA256, entryCount: 0 });
    expect(cassetteDigest([run])).toEqual({ digest: EMPTY_SHA256, entryCount: 0 });
  });

  it('chains entries in seq order, not array order', () => {
    const expected = [llm, tool, env].reduce(
      (prev, e) => sha256Hex(prev + canonical(oracleEntryOf(e))),
      '',
    );
    expect(cassetteDigest([env, run, tool, llm])).toEqual({ digest: expected, entryCount: 3 });
  });

  it('writes the entry exactly as canonical() would', () => {
    for (const e of [llm, tool, env, { ...env, output: undefined }]) {
      const entry = oracleEntryOf(e);
      if (!entry) throw new Error('entry expected');
      expect(cassetteStep('p', entry)).toBe(sha256Hex('p' + canonical(entry)));
    }
  });

  it('names the offending event index', () => {
    try {
      cassetteDigest([run, { seq: 1, type: 'tool' }]);
      expect.unreachable();
    } catch (err) {
      expect((err as ReplayDigestError).eventIndex).toBe(1);
      expect((err as ReplayDigestError).code).toBe('ORACLE_MALFORMED_EVENT');
    }
  });

  it('orders by seq stably, with missing seqs last', () => {
    expect(seqOrder([{ seq: 2 }, { seq: 1 }, {}, { seq: 1 }, null])).toEqual([1, 3, 0, 2, 4]);
  });
});

describe('CassetteBuilder', () => {
  it('matches cassetteDigest for events appended in seq order', () => {
    const b = new CassetteBuilder();
    for (const e of [run, llm, tool, env]) b.add(e);
    expect({ digest: b.digest, entryCount: b.entryCount }).toEqual(
      cassetteDigest([run, llm, tool, env]),
    );
  });

  it('refuses a decreasing seq', () => {
    const b = new CassetteBuilder();
    b.add(tool);
    expect(() => b.add(llm)).toThrow(/expected seq to be a number >= 2, got 1/);
  });

  it('property: any change to an oracle output changes the digest', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        (outputs, at) => {
          const events = outputs.map((output, seq) => ({
            seq,
            type: 'env',
            kind: 'random',
            key: 'random',
            output,
          }));
          const i = at % events.length;
          const changed = events.map((e, j) => (j === i ? { ...e, output: { was: e.output } } : e));
          expect(cassetteDigest(changed).digest).not.toBe(cassetteDigest(events).digest);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('oracleEntryText', () => {
  it('is canonical(oracleEntryOf(event)), for events in any member order', () => {
    const samples = [
      llm,
      tool,
      env,
      run,
      { ...env, output: undefined },
      { ...tool, output: undefined, error: undefined },
      { ...llm, key_projection: { keep: ['/messages/0/role'] } },
      { ...tool, input: 'not an object', key_projection: { drop: ['x'] } },
    ];
    for (const event of samples) {
      const entry = oracleEntryOf(event);
      const expected = entry === null ? null : canonical(entry);
      expect(oracleEntryText(event)).toBe(expected);
      expect(oracleEntryText(canonicalOrder(event))).toBe(expected);
    }
  });
});

describe('cassetteDigest with known member texts', () => {
  const events = [run, llm, tool, env, { ...tool, seq: 4, output: { ok: true } }];
  const unprojected = [...events, { ...llm, seq: 5, key_projection: undefined }];

  /** Known texts that are true: canonical(event[member]). */
  const truthful: KnownMemberTexts = {
    memberText: (index, member) => {
      const event = unprojected[index] as Record<string, unknown>;
      return member in event && event[member] !== undefined ? canonical(event[member]) : undefined;
    },
  };

  it('gives the digest computed without them', () => {
    expect(cassetteDigest(unprojected, truthful)).toEqual(cassetteDigest(unprojected));
    expect(cassetteDigest(unprojected, { memberText: () => undefined })).toEqual(
      cassetteDigest(unprojected),
    );
  });

  it('takes outputs and unprojected inputs from them, never a projected input', () => {
    const asked: string[] = [];
    const lying = (members: string[]): KnownMemberTexts => ({
      memberText: (index, member) => {
        asked.push(`${index}:${member}`);
        return members.includes(member) ? '"forged"' : undefined;
      },
    });
    const digest = cassetteDigest(unprojected).digest;
    // The llm event at 1 has a key_projection, so its request is serialized here.
    expect(cassetteDigest(events, lying(['request'])).digest).toBe(cassetteDigest(events).digest);
    expect(asked).not.toContain('1:request');
    expect(cassetteDigest(unprojected, lying(['request'])).digest).not.toBe(digest);
    expect(asked).toContain('5:request');
    for (const member of ['response', 'input', 'output'])
      expect(cassetteDigest(unprojected, lying([member])).digest).not.toBe(digest);
    // A null output is keyed as {error}, whatever the texts say.
    expect(asked).not.toContain('2:output');
  });
});

describe('CassetteBuilder with known member texts', () => {
  it('gives the digest it gives without them', () => {
    const events = [
      { seq: 0, type: 'tool', tool_name: 't', input: { a: 1 }, output: { b: [2] } },
      {
        seq: 1,
        type: 'llm',
        model: { model_id: 'm' },
        request: { messages: [] },
        response: null,
        error: { name: 'E', message: 'x' },
      },
      { seq: 2, type: 'env', kind: 'now', key: 'now', output: 5 },
    ];
    const plain = new CassetteBuilder();
    const fast = new CassetteBuilder();
    for (const event of events) {
      plain.add(event);
      fast.add(event, {
        memberText: (_index, member) => canonical((event as Record<string, unknown>)[member]),
      });
    }
    expect(fast.digest).toBe(plain.digest);
    expect(fast.entryCount).toBe(3);
  });
});
