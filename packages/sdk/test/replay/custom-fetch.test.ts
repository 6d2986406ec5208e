// A client's custom fetch, recorded at the wire (docs/guides/replay.md, "What a replay hands
// back"): what it sends through the global fetch is recorded, even when the client's own URL
// names no API; one that answers on its own is recorded as the client saw it, and runs again in
// a replay.
import { OpenAI } from 'openai';
import { describe, expect, it } from 'vitest';
import { runbackFetch, type FetchFunction } from '../../src/hooks/providers/recording-fetch.js';
import { instrumentOpenAI } from '../../src/integrations/openai/index.js';
import { replay } from '../../src/recorder/replay.js';
import { CHAT_TEXT } from '../mock-llm/openai.js';
import { startMockServer } from '../mock-llm/server.js';
import { recordValid, TRUST, type Ev } from '../support/record.js';

const body = (model: string) =>
  JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] });

describe('a custom fetch', () => {
  it('is recorded at the wire when the client URL names no API, and runs again in the replay', async () => {
    const server = await startMockServer({ route: () => ({ json: CHAT_TEXT }) });
    let runs = 0;
    const gateway: FetchFunction = (_input, init) => {
      runs++;
      const sent = JSON.parse(init?.body as string) as Record<string, unknown>;
      return fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...sent, model: 'routed-model' }),
      });
    };
    const agent = async () => {
      const call = runbackFetch(gateway);
      const response = await call('http://gateway.internal/llm', {
        method: 'POST',
        body: body('m'),
      });
      return ((await response.json()) as { id: string }).id;
    };
    const recorded = await recordValid(agent);
    await server.close();
    const llm = recorded.record.events.filter((e: Ev) => e.type === 'llm');
    expect(llm).toHaveLength(1);
    expect(llm[0]?.['model']).toEqual({ provider: 'openai', model_id: 'routed-model' });
    expect(runs).toBe(1);

    const replayed = await replay(recorded.text, agent, { trust: TRUST });
    expect(runs).toBe(2);
    expect(replayed.output).toBe(recorded.output);
    expect(replayed.report.status).toBe('reproduced');
  });

  it('that answers on its own is recorded as the client sent and received it', async () => {
    let runs = 0;
    const canned: FetchFunction = async () => {
      runs++;
      return new Response(JSON.stringify({ ...CHAT_TEXT, id: `chatcmpl-canned-${runs}` }), {
        headers: { 'content-type': 'application/json', 'x-request-id': 'req_canned' },
      });
    };
    const agent = async () => {
      const client = instrumentOpenAI(
        new OpenAI({
          apiKey: 'k',
          baseURL: 'http://canned.invalid/v1',
          fetch: canned,
          maxRetries: 0,
        }),
      );
      const answer = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
      });
      return `${answer.id} ${answer._request_id ?? ''}`;
    };
    const recorded = await recordValid(agent);
    expect(recorded.output).toBe('chatcmpl-canned-1 req_canned');
    const llm = recorded.record.events.filter((e: Ev) => e.type === 'llm');
    expect(llm[0]?.['model']).toEqual({ provider: 'openai', model_id: 'gpt-4o-mini' });

    // The custom fetch runs again (runback cannot see inside it); its answer is replaced by the
    // recorded one.
    const replayed = await replay(recorded.text, agent, { trust: TRUST });
    expect(runs).toBe(2);
    expect(replayed.output).toBe('chatcmpl-canned-1 req_canned');
    expect(replayed.report.status).toBe('reproduced');
  });
});
