// From outside: a real OpenTelemetry-instrumented agent — the `openai` client traced by
// @opentelemetry/instrumentation-openai, spans sent by the OTLP/HTTP JSON exporter — talks to
// a mock model server on 127.0.0.1; a mock collector keeps what the exporter posts. The
// collected requests (one per line, as a Collector's file exporter would write them) import
// into a record that verifies.
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { sealRecord } from '@runback/sign';
import { verifyJson } from '@runback/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOtlp, type OtlpImport } from '../src/index.js';
import { at, listAt } from './support/otlp-json.js';
import { GENERATED_AT, TEST_KEY } from './support/records.js';

const run = promisify(execFile);
const AGENT = new URL('./support/traced-openai-agent.mjs', import.meta.url).pathname;

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const url = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** Chat completions: the first asks for get_weather, the second answers. */
function modelServer(): Promise<Server> {
  let calls = 0;
  return listen((req, res) => {
    void body(req).then(() => {
      calls++;
      const message =
        calls === 1
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_w1',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
                },
              ],
            }
          : { role: 'assistant', content: 'It is 21 °C in Paris.' };
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: `chatcmpl-${calls}`,
          object: 'chat.completion',
          created: 1781600000,
          model: 'gpt-4o-mini-2024-07-18',
          choices: [{ index: 0, message, finish_reason: calls === 1 ? 'tool_calls' : 'stop' }],
          usage: {
            prompt_tokens: calls === 1 ? 61 : 88,
            completion_tokens: calls === 1 ? 17 : 9,
            total_tokens: 0,
          },
        }),
      );
    });
  });
}

describe('importOtlp on what a real instrumented agent exported', () => {
  const posted: string[] = [];
  let model: Server;
  let collector: Server;
  let imported: OtlpImport;

  beforeAll(async () => {
    model = await modelServer();
    collector = await listen((req, res) => {
      void body(req).then((text) => {
        expect(req.url).toBe('/v1/traces');
        expect(req.headers['content-type']).toMatch(/application\/json/);
        posted.push(text);
        res.setHeader('content-type', 'application/json');
        res.end('{}');
      });
    });
    const agent = await run(process.execPath, [AGENT], {
      env: {
        ...process.env,
        OPENAI_BASE_URL: `${url(model)}/v1`,
        OTLP_TRACES_URL: `${url(collector)}/v1/traces`,
      },
    });
    expect(agent.stdout).toBe('It is 21 °C in Paris.\n');
    imported = importOtlp(posted.join('\n'));
  });

  afterAll(() => {
    model.close();
    collector.close();
  });

  it('the exporter posted each span (OTLP/JSON) and the import reads them all', () => {
    expect(posted.length).toBeGreaterThanOrEqual(2);
    const names = posted.flatMap((text) =>
      listAt(JSON.parse(text), 'resourceSpans').flatMap((rs) =>
        listAt(rs, 'scopeSpans').flatMap((ss) => listAt(ss, 'spans').map((s) => at(s, 'name'))),
      ),
    );
    expect(names.sort()).toEqual([
      'chat gpt-4o-mini',
      'chat gpt-4o-mini',
      'execute_tool get_weather',
      'invoke_agent weather-agent',
    ]);
    expect(imported.source).toBe('genai');
    expect(imported.genaiSpanCount).toBe(4);
  });

  it('reads model, tokens, response ids and finish reasons from the instrumentation’s spans', () => {
    const llm = imported.events.filter((e) => e['type'] === 'llm');
    expect(llm.map((e) => e['model'])).toEqual([
      { provider: 'openai', model_id: 'gpt-4o-mini' },
      { provider: 'openai', model_id: 'gpt-4o-mini' },
    ]);
    expect(
      llm.map((e) => [at(e, 'usage', 'input_tokens'), at(e, 'usage', 'output_tokens')]),
    ).toEqual([
      [61, 17],
      [88, 9],
    ]);
    expect(llm.map((e) => at(e, 'response', 'finish_reason'))).toEqual(['tool_calls', 'stop']);
    expect(llm.map((e) => at(e, 'metadata', 'response_id'))).toEqual(['chatcmpl-1', 'chatcmpl-2']);
    expect(llm.map((e) => at(e, 'metadata', 'response_model'))).toEqual([
      'gpt-4o-mini-2024-07-18',
      'gpt-4o-mini-2024-07-18',
    ]);
    expect(llm.map((e) => at(e, 'request', 'params', 'temperature'))).toEqual([0, 0]);
    // This instrumentation sends message content as log records, not span attributes.
    expect(llm.map((e) => at(e, 'request', 'messages'))).toEqual([[], []]);
  });

  it('reads the tool call and hangs every step under the agent, in order', () => {
    const tool = imported.events.find((e) => e['type'] === 'tool');
    expect(tool).toMatchObject({
      tool_name: 'get_weather',
      tool_call_id: 'call_w1',
      input: { city: 'Paris' },
      output: { city: 'Paris', celsius: 21 },
    });
    expect(imported.events.map((e) => e['type'])).toEqual(['run', 'llm', 'tool', 'llm', 'run']);
    const runSpan = imported.events[0]?.['span_id'];
    for (const e of imported.events.slice(1, -1)) expect(e['parent_span_id']).toBe(runSpan);
    expect(imported.run).toMatchObject({ name: 'weather-agent', status: 'success' });
  });

  it('seals and signs into a record that verifies', () => {
    const record = sealRecord(
      { run: imported.run, events: imported.events },
      { generatedAt: GENERATED_AT, signer: { alg: 'Ed25519', privateKey: TEST_KEY.privatePem } },
    );
    expect(verifyJson(JSON.stringify(record), { pinned: [TEST_KEY.publicPem] }).verdict).toBe(
      'valid',
    );
  });
});
