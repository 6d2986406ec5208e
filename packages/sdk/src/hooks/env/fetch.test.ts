import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sha256Hex } from '@runback/canonical';
import { fetchKey } from '@runback/replay-digest';
import { describe, expect, it } from 'vitest';
import {
  SAMPLE_SECRETS,
  eventsOf,
  expectRedactionMetadata,
  expectShape,
  localServer,
  recordValid,
  sleep,
  type RecordJson,
} from '../../../test/support/record.js';
import { tool } from '../spans/tool.js';

const fetchEvents = (record: RecordJson) => eventsOf(record, 'env', 'fetch');

/** What a caller sees of a response. */
async function seen(response: Response) {
  return {
    status: response.status,
    statusText: response.statusText,
    url: response.url,
    headers: Object.fromEntries(response.headers),
    bytes: Buffer.from(await response.arrayBuffer()).toString('hex'),
  };
}

describe('fetch capture', () => {
  it('records a GET keyed by fetchKey, and the caller gets the same status, headers, body and url', async () => {
    const base = await localServer((_, __, res) => {
      res.writeHead(201, 'Made', { 'x-test': 'yes', 'content-type': 'text/plain; charset=utf-8' });
      res.end('héllo');
    });
    const url = `${base}/items?id=1`;
    const runId = 'run_fetch001';
    const { output, record } = await recordValid(
      async () => {
        const response = await seen(await fetch(url));
        await sleep(5); // the run is still open when the runtime finishes the response
        return response;
      },
      { captureEnv: true, runId },
    );
    expect(output).toMatchObject({ status: 201, statusText: 'Made', url });
    expect(output.headers['x-test']).toBe('yes');
    expect(Buffer.from(output.bytes, 'hex').toString()).toBe('héllo');

    // Exactly one env event: the runtime's own clock reads while it fetches are not the agent's.
    expect(eventsOf(record, 'env')).toHaveLength(1);
    const [event] = fetchEvents(record);
    expectShape(event!, runId, ['input']);
    expect(event).toMatchObject({
      kind: 'fetch',
      key: fetchKey('GET', url, new Uint8Array()),
      input: { method: 'GET', url },
      output: {
        status: 201,
        status_text: 'Made',
        // Every header but the connection's own (connection, keep-alive, transfer-encoding).
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          date: output.headers['date'],
          'x-test': 'yes',
        },
        body: { text: 'héllo' },
      },
    });
  });

  it('stores a binary body as base64 and hands back the exact bytes', async () => {
    const bytes = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x41, 0xc3]);
    const base = await localServer((_, __, res) => res.end(bytes));
    const { output, record } = await recordValid(async () => seen(await fetch(`${base}/bin`)), {
      captureEnv: true,
    });
    expect(output.bytes).toBe(bytes.toString('hex'));
    expect(fetchEvents(record)[0]?.['output']).toMatchObject({
      body: { base64: bytes.toString('base64') },
    });
  });

  it('keys a request body; equal requests share a key, different bodies do not', async () => {
    const base = await localServer((req, body, res) => res.end(`${req.method} ${body.toString()}`));
    const url = `${base}/echo`;
    const { output, record } = await recordValid(
      async () => {
        const texts: string[] = [];
        for (const init of [
          { method: 'POST', body: 'a=1' },
          { method: 'POST', body: 'a=2' },
          { method: 'put', body: 'a=1' },
        ]) {
          texts.push(await (await fetch(url, init)).text());
        }
        texts.push(await (await fetch(new Request(url, { method: 'POST', body: 'a=1' }))).text());
        return texts;
      },
      { captureEnv: true },
    );
    expect(output).toEqual(['POST a=1', 'POST a=2', 'PUT a=1', 'POST a=1']);
    const keys = fetchEvents(record).map((e) => e['key']);
    expect(keys).toEqual([
      fetchKey('POST', url, Buffer.from('a=1')),
      fetchKey('POST', url, Buffer.from('a=2')),
      sha256Hex(`fetch:PUT:${url}:${sha256Hex('a=1')}`),
      fetchKey('POST', url, Buffer.from('a=1')),
    ]);
    expect(new Set(keys).size).toBe(3);
  });

  it('records a network error as { error } and rethrows it', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/`;
    const { output, record } = await recordValid(() => fetch(url).catch((err: unknown) => err), {
      captureEnv: true,
    });
    expect(output).toBeInstanceOf(TypeError);
    const [event] = fetchEvents(record);
    expect(event).toMatchObject({
      key: fetchKey('GET', url),
      output: { error: { name: (output as Error).name, message: (output as Error).message } },
    });
  });

  it('redacts a secret in the stored response and never stores credential headers, while the caller gets them all', async () => {
    const base = await localServer((_, __, res) => {
      res.setHeader('set-cookie', 'session=abc123');
      res.setHeader('www-authenticate', 'Basic realm="r9x"');
      res.setHeader('x-page', '2');
      res.end(`{"key":"${SAMPLE_SECRETS.openai}"}`);
    });
    const { output, text, record } = await recordValid(
      async () => {
        const response = await fetch(base);
        return { cookie: response.headers.get('set-cookie'), body: await response.text() };
      },
      { captureEnv: true },
    );
    expect(output.cookie).toBe('session=abc123');
    expect(output.body).toContain(SAMPLE_SECRETS.openai);
    expect(text).not.toContain(SAMPLE_SECRETS.openai);
    const stored = fetchEvents(record)[0]?.['output'] as { headers: Record<string, string> };
    expect(stored.headers['x-page']).toBe('2');
    expect(Object.keys(stored.headers)).not.toContain('set-cookie');
    expect(Object.keys(stored.headers)).not.toContain('www-authenticate');
    expectRedactionMetadata(fetchEvents(record)[0]?.metadata, { redacted: ['/output/body/text'] });
  });

  it('keeps a fetch inside a tool with the tool call, records nothing with fetch capture off or outside a run; the fetch works everywhere', async () => {
    const base = await localServer((_, __, res) => res.end('ok'));
    const get = async () => (await fetch(base)).text();
    const inTool = await recordValid(() => tool('get', null, get), { captureEnv: true });
    expect(inTool.output).toBe('ok');
    const off = await recordValid(
      async () => {
        const first = await get();
        await sleep(5);
        return [first, await get(), Date.now()];
      },
      { captureEnv: { fetch: false } },
    );
    expect(off.output.slice(0, 2)).toEqual(['ok', 'ok']);
    expect(await get()).toBe('ok');
    // The tool body's own request, kept in the tool's event (none of the runtime's reads), and
    // no env event: the tool's output stands for it in the oracle stream.
    expect(eventsOf(inTool.record, 'env')).toEqual([]);
    const [toolEvent] = eventsOf(inTool.record, 'tool');
    expect(toolEvent?.['body_env']).toEqual([
      {
        kind: 'fetch',
        key: expect.stringMatching(/^[0-9a-f]{64}$/),
        input: { method: 'GET', url: `${base}/` },
        output: expect.objectContaining({ status: 200, body: { text: 'ok' } }),
      },
    ]);
    // Only the agent's own Date.now(): none of the runtime's reads while it fetched.
    expect(eventsOf(off.record, 'env').map((e) => e['kind'])).toEqual(['now']);
  });
});

/** A port on 127.0.0.1 with nothing listening (connections are refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
