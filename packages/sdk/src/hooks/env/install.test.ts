import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ED25519_SIGNER,
  eventsOf,
  expectShape,
  expectValid,
  recordValid,
  sleep,
  type RecordJson,
} from '../../../test/support/record.js';
import { startRun } from '../../recorder/recorder.js';
import { tool } from '../spans/tool.js';
import { captureInstalled } from './install.js';

const envOf = (record: RecordJson) => eventsOf(record, 'env').map((e) => [e['kind'], e['output']]);

describe('environment capture: clock, randomness, UUIDs', () => {
  it('records each read inside run.run() as an env event keyed by its kind, with the value returned', async () => {
    const runId = 'run_env00001';
    const { output, record } = await recordValid(
      () => {
        const now = Date.now();
        const date = new Date();
        const text = Date();
        const random = Math.random();
        const uuid = crypto.randomUUID();
        const nodeUuid = randomUUID();
        return { now, date: date.getTime(), text, random, uuid, nodeUuid };
      },
      { captureEnv: true, runId },
    );
    expect(captureInstalled()).toBe(true);
    const env = eventsOf(record, 'env');
    expect(env.map((e) => [e['kind'], e['key']])).toEqual([
      ['now', 'now'],
      ['date', 'date'],
      ['date', 'date'],
      ['random', 'random'],
      ['uuid', 'uuid'],
      ['uuid', 'uuid'],
    ]);
    for (const event of env) {
      expectShape(event, runId);
      expect(event.parent_span_id).toBe('run');
    }
    const [, , dateText] = env;
    expect(env.map((e) => e['output'])).toEqual([
      output.now,
      output.date,
      dateText?.['output'],
      output.random,
      output.uuid,
      output.nodeUuid,
    ]);
    // Date() returns a string; the event holds the clock reading it was made from.
    expect(new Date(dateText?.['output'] as number).toString()).toBe(output.text);
    expect(output.random).toBeGreaterThanOrEqual(0);
    expect(output.random).toBeLessThan(1);
    expect(output.uuid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(output.nodeUuid).not.toBe(output.uuid);
    expect(record.manifest.replay['entry_count']).toBe(6);
  });

  it('Date with arguments, Date.parse and Date.UTC are not recorded and behave as Date does', async () => {
    class Later extends Date {}
    const { output, record } = await recordValid(
      () => {
        const fixed = new Date(2020, 1, 1);
        const sub = new Later();
        return {
          fixed: [fixed.getFullYear(), fixed.getMonth(), fixed.getDate()],
          iso: new Date('2020-01-01T00:00:00.000Z').getTime(),
          copy: new Date(fixed).getTime() === fixed.getTime(),
          parse: Date.parse('2020-01-01T00:00:00.000Z'),
          utc: Date.UTC(2020, 0, 1),
          instance: fixed instanceof Date && sub instanceof Date && sub instanceof Later,
          proto: Object.getPrototypeOf(fixed) === Date.prototype,
          name: Date.name,
          sub: sub.getTime(),
        };
      },
      { captureEnv: true },
    );
    expect(output).toEqual({
      fixed: [2020, 1, 1],
      iso: 1577836800000,
      copy: true,
      parse: 1577836800000,
      utc: 1577836800000,
      instance: true,
      proto: true,
      name: 'Date',
      sub: output.sub,
    });
    // Only the argument-less construction of the subclass read the clock.
    expect(envOf(record)).toEqual([['date', output.sub]]);
  });

  it('keeps reads inside tool calls with the tool call, records nothing outside run.run() or after the run has ended', async () => {
    const run = startRun({ name: 'outside', captureEnv: true, signer: ED25519_SIGNER });
    Date.now();
    Math.random();
    crypto.randomUUID();
    void new Date();
    let later!: Promise<number>;
    const fromTool = await run.run(async () => {
      later = sleep(5).then(() => Date.now());
      return tool('clock', null, () => [Date.now(), Math.random(), randomUUID()]);
    });
    const result = await run.end({ output: fromTool });
    await later;
    const record = expectValid(JSON.stringify(result.record));
    expect(eventsOf(record, 'env')).toEqual([]);
    const [toolEvent] = eventsOf(record, 'tool');
    expect(toolEvent?.['output']).toEqual(fromTool);
    expect(toolEvent?.['body_env']).toEqual([
      { kind: 'now', key: 'now', output: fromTool[0] },
      { kind: 'random', key: 'random', output: fromTool[1] },
      { kind: 'uuid', key: 'uuid', output: fromTool[2] },
    ]);
  });

  it('a concurrent run without captureEnv records nothing, and its reads never reach the other run', async () => {
    const reads = (count: number, delay: number) => async () => {
      const values: number[] = [];
      for (let i = 0; i < count; i++) {
        await sleep(delay);
        values.push(Date.now());
        Math.random();
      }
      return values;
    };
    const [captured, plain] = await Promise.all([
      recordValid(reads(3, 2), { name: 'captured', captureEnv: { random: false } }),
      recordValid(reads(4, 1), { name: 'plain' }),
    ]);
    expect(envOf(captured.record)).toEqual(captured.output.map((value) => ['now', value]));
    expect(eventsOf(plain.record, 'env')).toEqual([]);
  });

  it('performance.now() is recorded only with { clock: true }', async () => {
    const off = await recordValid(() => performance.now(), { captureEnv: true });
    expect(eventsOf(off.record, 'env')).toEqual([]);
    const on = await recordValid(() => performance.now(), { captureEnv: { clock: true } });
    expect(eventsOf(on.record, 'env').map((e) => [e['kind'], e['key'], e['output']])).toEqual([
      ['clock', 'clock', on.output],
    ]);
  });

  it('each kind can be switched off on its own', async () => {
    const { record } = await recordValid(
      () => [Date.now(), new Date(), Math.random(), crypto.randomUUID(), randomUUID()],
      { captureEnv: { now: false, uuid: false } },
    );
    expect(eventsOf(record, 'env').map((e) => e['kind'])).toEqual(['date', 'random']);
  });
});
