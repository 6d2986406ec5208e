import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyJson } from '@runback/verify';
import { tempDir } from '../../test/support/temp-dir.js';
import {
  ED25519_SIGNER,
  HMAC_SIGNER,
  ISO_MS,
  LLM_INIT,
  SAMPLE_SECRETS,
  eventsOf,
  expectRunbackError,
  expectRedactionMetadata,
  expectShape,
  expectValid,
  gate,
  llmOutcome,
  readValidRecord,
  recordValid,
  resolvePointer,
  sleep,
  verifyText,
  type Ev,
} from '../../test/support/record.js';
import { llmCall, reasoning, record, startRun, tool } from '../index.js';

/** A small agent that makes one tool call, one reasoning note and one model call. */
async function refundAgent(): Promise<{ refund: boolean; total: number }> {
  const order = await tool('get_order', { id: 'O-7' }, async (input) => ({
    id: input.id,
    total: 12.5,
  }));
  reasoning('the order exists', 'check');
  const reply = await llmCall(LLM_INIT, async () => 'yes', llmOutcome);
  return { refund: reply === 'yes', total: order.total };
}

describe('record: written records', () => {
  it.each([
    ['Ed25519', ED25519_SIGNER],
    ['HMAC-SHA256', HMAC_SIGNER],
  ] as const)('writes a record signed with %s that verifies valid', async (alg, signer) => {
    const out = join(tempDir(), 'run.json');
    const { output, result } = await record(
      { name: 'refund-check', input: { order: 'O-7' }, out, signer },
      refundAgent,
    );
    expect(output).toEqual({ refund: true, total: 12.5 });
    expect(result.path).toBe(out);
    expect(result.record).toBeUndefined();
    expect(result.status).toBe('success');
    const { record: written } = readValidRecord(out);
    expect(written.manifest.signature?.['alg']).toBe(alg);
    expect(written.manifest).toEqual(JSON.parse(JSON.stringify(result.manifest)));
    expect(written.run).toEqual(JSON.parse(JSON.stringify(result.summary)));
  });

  it('without a signer the record is intact but unverified', async () => {
    const { result } = await record({ name: 'unsigned' }, refundAgent);
    const verdict = verifyText(JSON.stringify(result.record));
    expect(verdict.integrity).toBe(true);
    expect(verdict.checks.signature).toBe('unsigned');
    expect(verdict.verdict).toBe('unverified');
    expect(result.manifest.signed).toBe(false);
  });

  it('stores events, summary and manifest exactly as the format decides', async () => {
    const out = join(tempDir(), 'run.json');
    await record(
      {
        name: 'refund-check',
        input: { order: 'O-7' },
        out,
        signer: ED25519_SIGNER,
        runId: 'run_shape0001',
        metadata: { build: 42 },
        actor: { type: 'user', id: 'u-1', label: 'Ann' },
      },
      refundAgent,
    );
    const { text, record: rec } = readValidRecord(out);
    const [start, toolEvent, note, llm, end] = rec.events as [Ev, Ev, Ev, Ev, Ev];
    expect(rec.events.map((e) => [e.type, e.seq])).toEqual([
      ['run', 0],
      ['tool', 1],
      ['reasoning', 2],
      ['llm', 3],
      ['run', 4],
    ]);
    const runId = 'run_shape0001';
    for (const event of rec.events) {
      expectShape(event, runId, event === start ? ['metadata', 'actor'] : []);
      expect(event.parent_span_id).toBe(event.type === 'run' ? null : 'run');
      expect(event.span_id).toBe(event.type === 'run' ? 'run' : `s${event.seq}`);
    }
    expect(start).toMatchObject({
      phase: 'start',
      name: 'refund-check',
      status: 'running',
      input: { order: 'O-7' },
      output: null,
      error: null,
      metadata: { build: 42 },
      actor: { type: 'user', id: 'u-1', label: 'Ann' },
    });
    expect(start['ts_end']).toBe(start['ts_start']);
    expect(toolEvent).toMatchObject({
      tool_name: 'get_order',
      tool_call_id: null,
      input: { id: 'O-7' },
      output: { id: 'O-7', total: 12.5 },
      error: null,
    });
    expect(toolEvent['latency_ms']).toBeGreaterThanOrEqual(0);
    expect(note).toMatchObject({ text: 'the order exists', label: 'check' });
    expect(llm).toMatchObject({
      model: { provider: 'openai', model_id: 'gpt-test' },
      request: LLM_INIT.request,
      ...llmOutcome('yes'),
      error: null,
    });
    expect(end).toMatchObject({
      phase: 'end',
      name: 'refund-check',
      status: 'success',
      input: null,
      output: { refund: true, total: 12.5 },
      error: null,
      ts_start: start['ts_start'],
    });
    expect(rec.run).toEqual({
      run_id: runId,
      name: 'refund-check',
      status: 'success',
      started_at: start['ts_start'],
      ended_at: end['ts_end'],
      output: { refund: true, total: 12.5 },
      error: null,
    });
    expect(rec.$schema).toBe('runback.audit/v2');
    expect(rec.manifest).toMatchObject({
      run_id: runId,
      event_count: 5,
      algorithm: 'sha256-chain',
      replay: { entry_count: 2, algorithm: 'oracle-chain/sha256' },
      signed: true,
    });
    expect(rec.manifest['generated_at']).toMatch(ISO_MS);
    // One event per line, each stored with its members in canonical order (_hash first).
    const lines = text.split('\n');
    expect(lines).toHaveLength(rec.events.length + 3);
    rec.events.forEach((event, i) => {
      expect(lines[i + 1]?.replace(/,$/, '')).toBe(JSON.stringify(event));
      expect(Object.keys(event)).toEqual(Object.keys(event).sort());
    });
  });

  it('runs without out return the whole record, which verifies', async () => {
    const { result } = await record({ name: 'in-memory', signer: ED25519_SIGNER }, refundAgent);
    expect(result.path).toBeUndefined();
    const rec = expectValid(JSON.stringify(result.record));
    expect(rec.events).toHaveLength(5);
    expect(rec.run['output']).toEqual({ refund: true, total: 12.5 });
  });

  it('an agent that returns nothing ends with output null', async () => {
    const { record: rec } = await recordValid(() => undefined);
    expect(rec.events.at(-1)?.['output']).toBeNull();
    expect(rec.run['output']).toBeNull();
  });
});

describe('record: spans and concurrency', () => {
  it('links nested calls to their parent span; seq follows start order, the array completion order', async () => {
    const { record: rec } = await recordValid(async () => {
      await tool('outer', 1, async () => {
        await tool('inner', 2, async () => 'i');
        await llmCall(LLM_INIT, async () => 'r', llmOutcome);
        reasoning('inside outer');
        return 'o';
      });
      // Siblings: the first started finishes last.
      await Promise.all([
        tool('slow', 'a', async (x) => (await sleep(15), x)),
        tool('fast', 'b', async (x) => x),
      ]);
    });
    const byName = (name: string) => rec.events.find((e) => e['tool_name'] === name) as Ev;
    const outer = byName('outer');
    expect(outer.parent_span_id).toBe('run');
    expect(byName('inner').parent_span_id).toBe(outer.span_id);
    expect(eventsOf(rec, 'llm')[0]?.parent_span_id).toBe(outer.span_id);
    expect(eventsOf(rec, 'reasoning')[0]?.parent_span_id).toBe(outer.span_id);
    expect(rec.events.map((e) => e['tool_name'] ?? e['text'] ?? e.type)).toEqual([
      'run',
      'inner',
      'llm',
      'inside outer',
      'outer',
      'fast',
      'slow',
      'run',
    ]);
    expect(rec.events.map((e) => e.seq)).toEqual([0, 2, 3, 4, 1, 6, 5, 7]);
  });

  it('two concurrent runs in one process never mix their events', async () => {
    const agent = (name: string, delay: number) => async () => {
      for (let i = 0; i < 4; i++) {
        await tool(`${name}-tool`, i, async (x) => (await sleep((x * delay) % 7), x));
        reasoning(`${name} ${i}`);
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      return name;
    };
    const [a, b] = await Promise.all([
      recordValid(agent('a', 3), { name: 'a', runId: 'run_a' }),
      recordValid(agent('b', 5), { name: 'b', runId: 'run_b' }),
    ]);
    for (const [name, result] of [
      ['a', a],
      ['b', b],
    ] as const) {
      expect(result.output).toBe(name);
      expect(new Set(result.record.events.map((e) => e['run_id']))).toEqual(
        new Set([`run_${name}`]),
      );
      expect(eventsOf(result.record, 'tool').map((e) => [e['tool_name'], e['input']])).toEqual(
        [0, 1, 2, 3].map((i) => [`${name}-tool`, i]),
      );
      expect(eventsOf(result.record, 'reasoning').map((e) => e['text'])).toEqual(
        [0, 1, 2, 3].map((i) => `${name} ${i}`),
      );
    }
  });
});

describe('record: failures and the end of a run', () => {
  it('an agent that throws ends the run with status error; the record is written and the error rethrown', async () => {
    const out = join(tempDir(), 'run.json');
    const boom = new RangeError('boom');
    const err = await record({ name: 'fails', out, signer: ED25519_SIGNER }, async () => {
      await tool('t', 1, (x) => x);
      throw boom;
    }).catch((e: unknown) => e);
    expect(err).toBe(boom);
    const { record: rec } = readValidRecord(out);
    const end = rec.events.at(-1) as Ev;
    expect(end).toMatchObject({ phase: 'end', status: 'error', output: null });
    expect(end['error']).toEqual({ name: 'RangeError', message: 'boom', stack: boom.stack });
    expect(rec.run).toMatchObject({ status: 'error', error: end['error'], output: null });
    expect(eventsOf(rec, 'tool')).toHaveLength(1);
  });

  it('a synchronous throw and a thrown non-Error are recorded too', async () => {
    const out = join(tempDir(), 'run.json');
    const err = await record({ name: 'throws', out, signer: ED25519_SIGNER }, () => {
      throw 'plain string';
    }).catch((e: unknown) => e);
    expect(err).toBe('plain string');
    const { record: rec } = readValidRecord(out);
    expect(rec.events.at(-1)?.['error']).toEqual({ name: 'NonError', message: 'plain string' });
  });

  it('end() twice returns the same promise and result; the second outcome is ignored', async () => {
    const run = startRun({ name: 'twice', signer: ED25519_SIGNER });
    const first = run.end({ output: 1 });
    const second = run.end({ error: new Error('ignored') });
    expect(second).toBe(first);
    const result = await first;
    expect(await run.end()).toBe(result);
    expect(run.ended).toBe(true);
    const rec = expectValid(JSON.stringify(result.record));
    expect(rec.events.filter((e) => e['phase'] === 'end')).toHaveLength(1);
    expect(rec.run).toMatchObject({ status: 'success', output: 1 });
  });

  it('run() after end() throws RUN_ENDED, even before the end has settled', async () => {
    const run = startRun({ name: 'ended' });
    expect(run.ended).toBe(false);
    const ending = run.end();
    await expectRunbackError(() => run.run(() => 1), 'RUN_ENDED', /has ended/);
    await ending;
    const err = await expectRunbackError(() => run.run(() => 1), 'RUN_ENDED');
    expect(err.name).toBe('RunbackError');
  });

  it('calls after the end, or still in flight at the end, are not recorded and behave as plain calls', async () => {
    const run = startRun({ name: 'late', signer: ED25519_SIGNER });
    const release = gate();
    const started = gate();
    let slow!: Promise<string>;
    let late!: Promise<number>;
    run.run(() => {
      slow = tool('slow', 1, async () => {
        started.open();
        await release.promise;
        return 'slow';
      });
      late = (async () => {
        await release.promise;
        reasoning('too late');
        return tool('late', 2, (x) => x * 10);
      })();
    });
    await started.promise;
    const result = await run.end({ output: 'done' });
    release.open();
    expect(await slow).toBe('slow');
    expect(await late).toBe(20);
    const rec = expectValid(JSON.stringify(result.record));
    expect(rec.events.map((e) => [e.type, e.seq])).toEqual([
      ['run', 0],
      ['run', 2],
    ]);
    expect(rec.events[1]?.metadata).toEqual({ unfinished_calls: 1 });
    expect(rec.run['metadata']).toEqual({ unfinished_calls: 1 });
  });

  it('code of a started run that is not inside run.run() is not recorded', async () => {
    const run = startRun({ name: 'outside', signer: ED25519_SIGNER });
    expect(await tool('outside', 1, (x) => x + 1)).toBe(2);
    reasoning('outside');
    const rec = expectValid(JSON.stringify((await run.end()).record));
    expect(rec.events.map((e) => e.type)).toEqual(['run', 'run']);
  });
});

describe('record: values', () => {
  it.each([
    ['NaN', () => NaN],
    ['Infinity inside an array', () => ({ list: [1, Infinity] })],
    ['a BigInt', () => 1n],
    [
      'a cycle',
      () => {
        const node: Record<string, unknown> = {};
        node['self'] = node;
        return node;
      },
    ],
  ])(
    'a tool output holding %s is refused with VALUE_NOT_JSON; the run goes on',
    async (_, make) => {
      const { record: rec } = await recordValid(async () => {
        await expectRunbackError(
          () => tool('bad', 1, make as () => unknown),
          'VALUE_NOT_JSON',
          /tool "bad" output: expected JSON data/,
        );
        return tool('good', 2, (x) => x);
      });
      expect(eventsOf(rec, 'tool').map((e) => [e['tool_name'], e.seq])).toEqual([['good', 2]]);
    },
  );

  it('a tool input with no JSON form is refused before the tool runs', async () => {
    let ran = false;
    await recordValid(async () => {
      await expectRunbackError(
        () => tool('bad', { n: NaN }, () => (ran = true)),
        'VALUE_NOT_JSON',
        /tool "bad" input: .*\/n/,
      );
    });
    expect(ran).toBe(false);
  });

  it('an output with no JSON form ends the run as failed, writes the record, then rejects', async () => {
    const out = join(tempDir(), 'run.json');
    const run = startRun({ name: 'x', out, journal: true });
    await expect(run.end({ output: { total: Infinity } })).rejects.toMatchObject({
      code: 'VALUE_NOT_JSON',
    });
    expect(existsSync(`${out}.journal`)).toBe(false);
    const bytes = readFileSync(out);
    expect(verifyJson(bytes).integrity).toBe(true);
    const end = (JSON.parse(bytes.toString()) as { events: Record<string, unknown>[] }).events.at(
      -1,
    );
    expect(end).toMatchObject({ status: 'error', output: null, error: { name: 'RunbackError' } });
  });

  it('a run input with no JSON form is refused when the run starts', async () => {
    const out = join(tempDir(), 'run.json');
    await expectRunbackError(
      () => startRun({ name: 'x', input: 2n, out, journal: true }),
      'VALUE_NOT_JSON',
      /run input/,
    );
    expect(existsSync(`${out}.journal`)).toBe(false);
  });

  it('inputs and outputs are copied when recorded: later mutation changes nothing', async () => {
    const runInput = { items: ['start'] };
    const toolInput = { items: ['a'] };
    const toolOutput = { n: 1 };
    const { record: rec } = await recordValid(
      async () => {
        runInput.items.push('changed');
        const length = await tool('mutate', toolInput, async (input) => {
          input.items.push('b');
          await sleep(1);
          input.items.push('c');
          return input.items.length;
        });
        const out = await tool('give', null, () => toolOutput);
        out.n = 2;
        return length;
      },
      { input: runInput },
    );
    expect(rec.events[0]?.['input']).toEqual({ items: ['start'] });
    const [mutate, give] = eventsOf(rec, 'tool');
    expect(mutate).toMatchObject({ input: { items: ['a'] }, output: 3 });
    expect(give).toMatchObject({ input: null, output: { n: 1 } });
  });

  it('tool, llmCall and reasoning outside any run are plain calls', async () => {
    expect(await tool('t', 2, (x) => x * 2)).toBe(4);
    const err = new Error('tool failed');
    await expect(tool('t', 2, () => Promise.reject(err))).rejects.toBe(err);
    const answer = await llmCall(
      LLM_INIT,
      async () => 'plain',
      () => {
        throw new Error('toOutcome is not called outside a run');
      },
    );
    expect(answer).toBe('plain');
    expect(() => reasoning('nothing to record')).not.toThrow();
  });

  it.each([
    ['an empty name', { name: '' }],
    ['journal: true without out', { name: 'x', journal: true }],
    ['an empty out', { name: 'x', out: '' }],
    ['metadata that is not an object', { name: 'x', metadata: 'm' }],
    ['captureEnv that is not a boolean or object', { name: 'x', captureEnv: 'yes' }],
    ['redact options of the wrong shape', { name: 'x', redact: { keys: 'ssn' } }],
  ])('startRun rejects %s with a TypeError', (_, options) => {
    expect(() => startRun(options as never)).toThrow(TypeError);
  });
});

describe('record: journal', () => {
  const readLines = (path: string) => readFileSync(path, 'utf8').split('\n');

  it('journal: true appends each completed event to <out>.journal, then removes it', async () => {
    const out = join(tempDir(), 'run.json');
    const journal = `${out}.journal`;
    const run = startRun({
      name: 'journaled',
      out,
      journal: true,
      signer: ED25519_SIGNER,
      runId: 'run_journal01',
    });
    const afterStart = readLines(journal);
    expect(afterStart).toHaveLength(3); // header, run-start, and the empty text after the last newline
    expect(afterStart[2]).toBe('');
    // With a signer every line ends in a tab and its HMAC (docs/guides/recording.md).
    expect(afterStart.slice(0, 2).every((l) => /^\{.*\}\t[0-9a-f]{64}$/.test(l))).toBe(true);
    const header = JSON.parse((afterStart[0] as string).split('\t')[0] as string) as Record<
      string,
      unknown
    >;
    expect(header).toEqual({
      runback_journal: 1,
      run_id: 'run_journal01',
      created_at: expect.stringMatching(ISO_MS),
      writer: '@runback/sdk',
      pid: process.pid,
      host: expect.any(String),
      auth: {
        alg: 'HMAC-SHA256',
        kdf: 'HKDF-SHA256',
        salt: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    });
    expect(statSync(journal).mode & 0o777).toBe(0o600);

    const release = gate();
    let midRun: string[] = [];
    await run.run(async () => {
      await tool('first', 1, (x) => x);
      reasoning('noted');
      const pending = tool('in-flight', 2, async (x) => (await release.promise, x));
      midRun = readLines(journal);
      release.open();
      await pending;
    });
    // Mid-run: header, run-start, the tool and the note; not the call still in flight.
    expect(midRun).toHaveLength(5);
    expect(midRun[4]).toBe('');
    await run.end({ output: 'ok' });
    expect(existsSync(journal)).toBe(false);

    const { record: rec } = readValidRecord(out);
    expect(rec.events.map((e) => e['tool_name'] ?? e.type)).toEqual([
      'run',
      'first',
      'reasoning',
      'in-flight',
      'run',
    ]);
    midRun
      .slice(1, 4)
      .forEach((line, i) =>
        expect(line.slice(0, line.lastIndexOf('\t'))).toBe(JSON.stringify(rec.events[i])),
      );
  });

  it('a journal path of its own is used and removed, with or without out', async () => {
    const dir = tempDir();
    const journal = join(dir, 'custom.journal');
    const run = startRun({
      name: 'custom',
      journal,
      out: join(dir, 'run.json'),
      signer: ED25519_SIGNER,
    });
    expect(existsSync(journal)).toBe(true);
    await run.end();
    expect(existsSync(journal)).toBe(false);
    readValidRecord(join(dir, 'run.json'));

    const { result } = await record(
      { name: 'memory', journal, signer: ED25519_SIGNER },
      refundAgent,
    );
    expectValid(JSON.stringify(result.record));
    expect(existsSync(journal)).toBe(false);
  });

  it('refuses to start over an existing journal (an earlier run was interrupted)', async () => {
    const out = join(tempDir(), 'run.json');
    writeFileSync(`${out}.journal`, 'earlier\n');
    await expectRunbackError(
      () => startRun({ name: 'x', out, journal: true }),
      'OUTPUT_EXISTS',
      /recover/,
    );
    expect(readFileSync(`${out}.journal`, 'utf8')).toBe('earlier\n');
  });
});

describe('record: redaction', () => {
  const leaks = [
    'sk-live-input-value',
    SAMPLE_SECRETS.openai,
    'hunter2-password',
    'tok-1234-access',
    SAMPLE_SECRETS.bearer,
    SAMPLE_SECRETS.aws,
    'session=cookie-value',
  ];

  const agent = async () => {
    await tool('login', { user: 'ann', password: 'hunter2-password' }, async () => ({
      session: 'ok',
      access_token: 'tok-1234-access',
      note: `use ${SAMPLE_SECRETS.bearer}`,
    }));
    return {
      reply: `done with ${SAMPLE_SECRETS.aws}`,
      cookie: 'session=cookie-value',
      max_tokens: 5,
    };
  };
  const input = { api_key: 'sk-live-input-value', prompt: `key ${SAMPLE_SECRETS.openai} inside` };

  it('secrets in the run input, tool input and output and run output never reach the written bytes', async () => {
    const out = join(tempDir(), 'run.json');
    const { output, result } = await record(
      { name: 'secrets', input, out, signer: ED25519_SIGNER },
      agent,
    );
    expect(output.cookie).toBe('session=cookie-value'); // the agent's own values are untouched
    const { text, record: rec } = readValidRecord(out);
    for (const secret of leaks) expect(text).not.toContain(secret);

    const [start, login, end] = rec.events as [Ev, Ev, Ev];
    expectRedactionMetadata(start.metadata, { redacted: ['/input/api_key', '/input/prompt'] });
    expect(start['input']).toEqual({ api_key: '[REDACTED]', prompt: 'key [REDACTED] inside' });
    expectRedactionMetadata(login.metadata, {
      redacted: ['/input/password', '/output/access_token', '/output/note'],
    });
    expect(end['output']).toEqual({
      reply: 'done with [REDACTED]',
      cookie: '[REDACTED]',
      max_tokens: 5,
    });
    const all = [
      '/events/0/input/api_key',
      '/events/0/input/prompt',
      '/events/1/input/password',
      '/events/1/output/access_token',
      '/events/1/output/note',
      '/events/2/output/reply',
      '/events/2/output/cookie',
    ];
    expectRedactionMetadata(end.metadata, {
      redacted: ['/output/reply', '/output/cookie'],
      redactions: all,
    });
    expect(rec.run['metadata']).toEqual(end.metadata);
    expect(result.summary.metadata).toEqual(end.metadata);
    for (const pointer of all) expect(resolvePointer(rec, pointer)).toMatch(/\[REDACTED\]/);
  });

  it('redact: false keeps every value as it was', async () => {
    const { text, record: rec } = await recordValid(agent, { input, redact: false });
    for (const secret of leaks) expect(text).toContain(JSON.stringify(secret).slice(1, -1));
    for (const event of rec.events) expect(event.metadata).toBeUndefined();
  });

  it('custom redaction options apply to every event', async () => {
    const { text, record: rec } = await recordValid(
      () => tool('lookup', { ssn: '123-45-6789' }, () => ({ customer_ssn: '987-65-4321' })),
      { redact: { keys: ['ssn'] } },
    );
    expect(text).not.toContain('123-45-6789');
    expect(text).not.toContain('987-65-4321');
    expectRedactionMetadata(eventsOf(rec, 'tool')[0]?.metadata, {
      redacted: ['/input/ssn', '/output/customer_ssn'],
    });
  });
});
