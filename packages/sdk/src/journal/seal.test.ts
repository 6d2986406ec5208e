import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import {
  ED25519_SIGNER,
  HMAC_SIGNER,
  ISO_MS,
  SAMPLE_SECRETS,
  expectRedactionMetadata,
  expectRunbackError,
  readValidRecord,
  recordValid,
  type Ev,
  type RecordJson,
} from '../../test/support/record.js';
import { IncrementalSealer } from '../session/sealer.js';
import { startRun } from '../recorder/recorder.js';
import { reasoning } from '../hooks/spans/reasoning.js';
import { tool } from '../hooks/spans/tool.js';
import { sealJournal } from './seal.js';
import type { Signer } from '@runback/sign';

const RUN_ID = 'run_crash0001';

/**
 * The journal of a run that never ended: run-start (its input holds a secret), tool `a`,
 * a note, tool `b`; a third tool (seq 3) was still running, so the journal holds seqs 0, 1, 2, 4.
 */
async function interruptedJournal(
  signer?: Signer,
): Promise<{ dir: string; journal: string; lines: string[] }> {
  const dir = tempDir();
  const journal = join(dir, 'crashed.journal');
  const run = startRun({
    name: 'crashy',
    journal,
    runId: RUN_ID,
    ...(signer === undefined ? {} : { signer }),
    input: { api_key: 'k-secret-1', q: 1 },
  });
  await run.run(async () => {
    await tool('a', 1, (x) => x);
    reasoning('thinking');
    void tool('never-finishes', 2, () => new Promise(() => undefined));
    await tool('b', 3, (x) => x);
  });
  return { dir, journal, lines: readFileSync(journal, 'utf8').split('\n').slice(0, -1) };
}

/** Writes `lines` (each newline-terminated) as a journal in `dir`. */
function writeJournal(dir: string, lines: readonly string[], name = 'edited.journal'): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
  return path;
}

/** A journal in `dir` holding a header and the events of `record`, then `extra` lines. */
function journalOf(dir: string, record: RecordJson, extra: readonly string[] = []): string {
  const header = {
    runback_journal: 1,
    run_id: record.manifest['run_id'],
    created_at: 'x',
    writer: 'test',
  };
  return writeJournal(dir, [
    JSON.stringify(header),
    ...record.events.map((e) => JSON.stringify(e)),
    ...extra,
  ]);
}

describe('sealJournal: an interrupted run', () => {
  it('seals every journaled event and appends an Interrupted run-end with seq max+1', async () => {
    const { dir, journal, lines } = await interruptedJournal(ED25519_SIGNER);
    const before = readFileSync(journal);
    const out = join(dir, 'recovered.json');
    const report = await sealJournal(journal, { out, signer: ED25519_SIGNER });

    expect(readFileSync(journal).equals(before)).toBe(true);
    const { record } = readValidRecord(out);
    // Each line is the event's text, a tab and its MAC.
    expect(lines.every((l) => /\t[0-9a-f]{64}$/.test(l))).toBe(true);
    const journaled = lines.slice(1).map((l) => l.slice(0, l.lastIndexOf('\t')));
    expect(report.authentication).toBe('checked');
    expect(record.events.slice(0, -1).map((e) => JSON.stringify(e))).toEqual(journaled);
    const start = record.events[0] as Ev;
    const last = record.events.at(-2) as Ev;
    const end = record.events.at(-1) as Ev;
    expect(record.events.map((e) => e.seq)).toEqual([0, 1, 2, 4, 5]);
    expect(end).toMatchObject({
      type: 'run',
      phase: 'end',
      name: 'crashy',
      status: 'error',
      output: null,
      input: null,
      span_id: 'run',
      parent_span_id: null,
      ts_start: start['ts_start'],
      ts_end: last['ts_end'],
      error: { name: 'Interrupted', message: expect.stringMatching(/4 events/) },
    });
    expect(end.metadata).toEqual({
      recovered_at: expect.stringMatching(ISO_MS),
      redactions: ['/events/0/input/api_key'],
    });
    expect(record.run).toMatchObject({
      status: 'error',
      error: end['error'],
      ended_at: last['ts_end'],
    });
    expect(report).toEqual({
      path: out,
      runId: RUN_ID,
      recoveredEvents: 4,
      eventTypes: { run: 1, tool: 2, reasoning: 1 },
      appendedEnd: true,
      authentication: 'checked',
      writerMayBeAlive: false,
      interrupted: true,
      droppedTornLine: undefined,
      manifest: record.manifest,
      summary: record.run,
    });
  });

  it('drops a torn final line (no newline, partial JSON) and reports its number', async () => {
    const { dir, journal, lines } = await interruptedJournal(ED25519_SIGNER);
    appendFileSync(journal, '{"_hash":"0f3a","run_id":"run_cr');
    const report = await sealJournal(journal, {
      out: join(dir, 'out.json'),
      signer: ED25519_SIGNER,
    });
    expect(report.droppedTornLine).toBe(lines.length + 1);
    expect(report.recoveredEvents).toBe(4);
    expect(readValidRecord(join(dir, 'out.json')).record.events).toHaveLength(5);
  });

  it('uses a given end, and redacts what it adds', async () => {
    const { dir, journal } = await interruptedJournal(ED25519_SIGNER);
    const out = join(dir, 'out.json');
    const report = await sealJournal(journal, {
      out,
      signer: ED25519_SIGNER,
      end: {
        status: 'error',
        output: { exit_code: 1, stdout: `key ${SAMPLE_SECRETS.openai}` },
        error: { name: 'NonZeroExit', message: `auth ${SAMPLE_SECRETS.bearer}` },
        metadata: { recorder: 'test' },
      },
    });
    expect(report).toMatchObject({ appendedEnd: true, interrupted: false });
    const { text, record } = readValidRecord(out);
    expect(text).not.toContain(SAMPLE_SECRETS.openai);
    expect(text).not.toContain(SAMPLE_SECRETS.bearer);
    const end = record.events.at(-1) as Ev;
    expect(end).toMatchObject({
      status: 'error',
      output: { exit_code: 1, stdout: 'key [REDACTED]' },
      error: { name: 'NonZeroExit', message: 'auth [REDACTED]' },
    });
    expect(end['ts_end']).toMatch(ISO_MS);
    expectRedactionMetadata(
      end.metadata,
      {
        redacted: ['/output/stdout', '/error/message'],
        redactions: [
          '/events/0/input/api_key',
          '/events/4/output/stdout',
          '/events/4/error/message',
        ],
      },
      { recorder: 'test' },
    );
    expect(record.run['metadata']).toEqual(end.metadata);
  });

  it('a given successful end; redact: false keeps what it adds', async () => {
    const { dir, journal } = await interruptedJournal(ED25519_SIGNER);
    const out = join(dir, 'out.json');
    await sealJournal(journal, {
      out,
      signer: ED25519_SIGNER,
      redact: false,
      end: { status: 'success', output: { stdout: SAMPLE_SECRETS.aws } },
    });
    const end = readValidRecord(out).record.events.at(-1) as Ev;
    expect(end).toMatchObject({
      status: 'success',
      output: { stdout: SAMPLE_SECRETS.aws },
      error: null,
    });
    expect(end.metadata).toEqual({ redactions: ['/events/0/input/api_key'] });
  });
});

describe('sealJournal: a complete journal', () => {
  it('is sealed as it is: same events and digests, no end appended', async () => {
    const { record: original } = await recordValid(async () => {
      await tool('t', 1, (x) => x);
      return 'done';
    });
    const dir = tempDir();
    const journal = journalOf(dir, original);
    // Another producer's journal, without line MACs: signed only when asked to.
    await expectRunbackError(
      () => sealJournal(journal, { out: join(dir, 'out.json'), signer: ED25519_SIGNER }),
      'JOURNAL_UNAUTHENTICATED',
      /carries no line MACs/,
    );
    expect(existsSync(join(dir, 'out.json'))).toBe(false);
    const report = await sealJournal(journal, {
      out: join(dir, 'out.json'),
      signer: ED25519_SIGNER,
      allowUnauthenticated: true,
    });
    expect(report.authentication).toBe('none');
    expect(report).toMatchObject({ appendedEnd: false, interrupted: false, recoveredEvents: 3 });
    const { record } = readValidRecord(join(dir, 'out.json'));
    expect(record.events).toEqual(original.events);
    expect(record.run).toEqual(original.run);
    expect(record.manifest['content_digest']).toBe(original.manifest['content_digest']);
    expect(record.manifest.replay).toEqual(original.manifest.replay);
  });

  it('an event after the run-end is corrupt, even when it chains', async () => {
    const { record: original } = await recordValid(() => 'done');
    const last = original.events.at(-1) as Ev & { _hash: string };
    const sealer = new IncrementalSealer({
      head: last._hash,
      count: original.events.length,
      firstSeq: 2,
    });
    const extra = sealer.add({
      ...last,
      _hash: undefined,
      seq: 2,
      type: 'reasoning',
      text: 'late',
      label: null,
    } as never);
    const dir = tempDir();
    const journal = journalOf(dir, original, [extra]);
    await expectRunbackError(
      () => sealJournal(journal, { out: join(dir, 'out.json') }),
      'JOURNAL_CORRUPT',
      /line 4: expected no event after the run-end event/,
    );
  });
});

describe('sealJournal: authenticated journals', () => {
  /** An authenticated journal with one event edited and the chain recomputed after it. */
  async function rechained(): Promise<{ dir: string; journal: string; lines: string[] }> {
    const { dir, journal, lines } = await interruptedJournal(ED25519_SIGNER);
    const events = lines.slice(1).map((l) => JSON.parse(l.slice(0, l.lastIndexOf('\t'))) as Ev);
    const sealer = new IncrementalSealer();
    const texts = events.map((e, i) =>
      sealer.add({ ...e, _hash: undefined, ...(i === 1 ? { output: 999 } : {}) } as never),
    );
    return { dir, journal, lines: [lines[0] as string, ...texts] };
  }

  it('an event edited and re-chained without the key is refused (the old MACs do not match)', async () => {
    const { dir, lines } = await rechained();
    const keepMacs = lines.map((l, i) => (i === 0 ? l : `${l}\t${'ab'.repeat(32)}`));
    const forged = writeJournal(dir, keepMacs);
    await expectRunbackError(
      () => sealJournal(forged, { out: join(dir, 'out.json'), signer: ED25519_SIGNER }),
      'JOURNAL_UNAUTHENTIC',
      /line 2: expected the line's MAC to match the signing key/,
    );
    expect(existsSync(join(dir, 'out.json'))).toBe(false);
  });

  it('MACs stripped and the header rewritten without "auth": refused as unauthenticated', async () => {
    const { dir, lines } = await rechained();
    const header = JSON.parse((lines[0] as string).split('\t')[0] as string) as Record<
      string,
      unknown
    >;
    delete header['auth'];
    const stripped = writeJournal(dir, [JSON.stringify(header), ...lines.slice(1)]);
    await expectRunbackError(
      () => sealJournal(stripped, { out: join(dir, 'out.json'), signer: ED25519_SIGNER }),
      'JOURNAL_UNAUTHENTICATED',
      /written without a signing key/,
    );
    // Lines without MACs under a header that declares them.
    const bare = writeJournal(dir, [lines[0] as string, ...lines.slice(1)], 'bare.journal');
    await expectRunbackError(
      () => sealJournal(bare, { out: join(dir, 'out.json'), signer: ED25519_SIGNER }),
      'JOURNAL_UNAUTHENTIC',
      /line 2: expected a line MAC/,
    );
  });

  it('another key is refused; without a key the MACs go unchecked and the record is unsigned', async () => {
    const { dir, journal } = await interruptedJournal(ED25519_SIGNER);
    await expectRunbackError(
      () => sealJournal(journal, { out: join(dir, 'out.json'), signer: HMAC_SIGNER }),
      'JOURNAL_UNAUTHENTIC',
      /header's MAC/,
    );
    const report = await sealJournal(journal, { out: join(dir, 'out.json') });
    expect(report.authentication).toBe('unchecked');
    expect(report.manifest.signed).toBe(false);
  });
});

describe('sealJournal: a writer that may still be running', () => {
  it('reports writerMayBeAlive while the pid in the header is alive on this host', async () => {
    const { record: original } = await recordValid(() => 'done');
    const dir = tempDir();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], {
      stdio: 'ignore',
    });
    try {
      const header = {
        runback_journal: 1,
        run_id: original.manifest['run_id'],
        created_at: 'x',
        writer: 'test',
        pid: sleeper.pid,
        host: hostname(),
      };
      const lines = [JSON.stringify(header), ...original.events.map((e) => JSON.stringify(e))];
      const journal = writeJournal(dir, lines);
      const alive = await sealJournal(journal, { out: join(dir, 'a.json') });
      expect(alive.writerMayBeAlive).toBe(true);
      const elsewhere = writeJournal(
        dir,
        [JSON.stringify({ ...header, host: `not-${hostname()}` }), ...lines.slice(1)],
        'other-host.journal',
      );
      expect((await sealJournal(elsewhere, { out: join(dir, 'b.json') })).writerMayBeAlive).toBe(
        false,
      );
    } finally {
      sleeper.kill('SIGKILL');
    }
    await new Promise((resolve) => sleeper.once('close', resolve));
    const dead = writeJournal(
      dir,
      [
        JSON.stringify({
          runback_journal: 1,
          run_id: original.manifest['run_id'],
          created_at: 'x',
          writer: 'test',
          pid: sleeper.pid,
          host: hostname(),
        }),
        ...original.events.map((e) => JSON.stringify(e)),
      ],
      'dead.journal',
    );
    expect((await sealJournal(dead, { out: join(dir, 'c.json') })).writerMayBeAlive).toBe(false);
  });
});

describe('sealJournal: corrupt journals', () => {
  const variants: [string, (lines: string[]) => string[], number, RegExp][] = [
    ['a line that is not JSON', (l) => replace(l, 2, 'not json'), 3, /does not parse/],
    ['an empty line', (l) => replace(l, 2, ''), 3, /does not parse/],
    ['a line that is not an object', (l) => replace(l, 3, '[1,2]'), 4, /JSON object/],
    ['another run id', (l) => replace(l, 2, edit(l[2], { run_id: 'run_other' })), 3, /run_id/],
    [
      'a duplicate seq',
      (l) => [...l.slice(0, 3), l[2] as string, ...l.slice(3)],
      4,
      /unique integer seq/,
    ],
    [
      'a seq that is not an integer',
      (l) => replace(l, 3, edit(l[3], { seq: 1.5 })),
      4,
      /unique integer seq/,
    ],
    ['altered content', (l) => replace(l, 2, edit(l[2], { input: 2 })), 3, /_hash/],
    ['an altered _hash', (l) => replace(l, 4, edit(l[4], { _hash: '0'.repeat(64) })), 5, /_hash/],
    ['a removed line', (l) => [...l.slice(0, 2), ...l.slice(3)], 3, /_hash/],
    ['a repeated run-start', (l) => [...l, l[1] as string], 6, /unique integer seq/],
  ];

  it.each(variants)(
    '%s fails with JOURNAL_CORRUPT naming the line',
    async (_, change, line, why) => {
      const { dir, lines } = await interruptedJournal();
      const journal = writeJournal(dir, change(lines));
      const before = readFileSync(journal);
      const err = await expectRunbackError(
        () => sealJournal(journal, { out: join(dir, 'out.json') }),
        'JOURNAL_CORRUPT',
      );
      expect(err.message).toContain(`, line ${line}: `);
      expect(err.message).toMatch(why);
      expect(existsSync(join(dir, 'out.json'))).toBe(false);
      expect(readFileSync(journal).equals(before)).toBe(true);
    },
  );
});

describe('sealJournal: headers', () => {
  const header = (fields: Record<string, unknown>) =>
    JSON.stringify({ runback_journal: 1, run_id: RUN_ID, ...fields });

  it.each([
    ['an empty file', '', /empty/],
    ['a header that is not JSON', 'hello\n', /JSON object header/],
    ['a header of another version', `${header({ runback_journal: 2 })}\n`, /"runback_journal": 1/],
    ['a header without a run id', `${header({ run_id: '' })}\n`, /run_id/],
    ['an event where the header should be', '{"type":"run","seq":0}\n', /runback_journal/],
    ['a header without its newline', header({}), /incomplete/],
  ])('%s fails with JOURNAL_HEADER_INVALID', async (_, text, why) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'j'), text);
    await expectRunbackError(
      () => sealJournal(join(dir, 'j'), { out: join(dir, 'out.json') }),
      'JOURNAL_HEADER_INVALID',
      why,
    );
  });

  it('a header and nothing else fails with JOURNAL_EMPTY', async () => {
    const dir = tempDir();
    const journal = writeJournal(dir, [header({})]);
    await expectRunbackError(
      () => sealJournal(journal, { out: join(dir, 'out.json') }),
      'JOURNAL_EMPTY',
      /no run-start event: the run was stopped before it started.*remove the journal \(rm .*edited\.journal\) and run again/,
    );
    expect(existsSync(join(dir, 'out.json'))).toBe(false);
  });
});

function replace(lines: readonly string[], index: number, line: string): string[] {
  return lines.map((l, i) => (i === index ? line : l));
}

function edit(line: string | undefined, members: Record<string, unknown>): string {
  return JSON.stringify({ ...(JSON.parse(line as string) as object), ...members });
}
