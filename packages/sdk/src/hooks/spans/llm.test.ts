import { describe, expect, it } from 'vitest';
import {
  LLM_INIT,
  eventsOf,
  expectRunbackError,
  expectShape,
  llmOutcome,
  recordValid,
  type RecordJson,
} from '../../../test/support/record.js';
import { tool } from './tool.js';
import { beginLlmCall, llmCall } from './llm.js';

describe('llmCall', () => {
  it('records model, request, response, usage and latency', async () => {
    const { output, record } = await recordValid(
      () => llmCall(LLM_INIT, async () => 'answer', llmOutcome),
      {
        runId: 'run_llm00001',
      },
    );
    expect(output).toBe('answer');
    const [event] = eventsOf(record, 'llm');
    expectShape(event!, 'run_llm00001');
    expect(event).toMatchObject({
      model: { provider: 'openai', model_id: 'gpt-test' },
      request: LLM_INIT.request,
      ...llmOutcome('answer'),
      error: null,
      parent_span_id: 'run',
    });
    expect(record.manifest.replay['entry_count']).toBe(1);
  });

  it('records a failed send with response and usage null, and rethrows', async () => {
    const failure = new Error('rate limited');
    const { record } = await recordValid(async () => {
      await expect(llmCall(LLM_INIT, () => Promise.reject(failure), llmOutcome)).rejects.toBe(
        failure,
      );
    });
    expect(eventsOf(record, 'llm')[0]).toMatchObject({
      response: null,
      usage: null,
      error: { name: 'Error', message: 'rate limited' },
    });
  });

  it('copies the request when the call starts', async () => {
    const request = { messages: [{ role: 'user', content: 'first' }] };
    const { record } = await recordValid(() =>
      llmCall(
        { ...LLM_INIT, request },
        async () => {
          request.messages.push({ role: 'assistant', content: 'added later' });
          return 'ok';
        },
        llmOutcome,
      ),
    );
    expect(eventsOf(record, 'llm')[0]?.['request']).toEqual({
      messages: [{ role: 'user', content: 'first' }],
    });
  });
});

describe('beginLlmCall', () => {
  it('links calls made inside span.run() to the model call, and records nothing nested as llm', async () => {
    const { record } = await recordValid(async () => {
      const span = beginLlmCall({ ...LLM_INIT, metadata: { attempt: 1 } });
      expect(span).toBeDefined();
      await span?.run(async () => {
        expect(beginLlmCall(LLM_INIT)).toBeUndefined();
        await tool('inner', 1, (x) => x);
      });
      span?.end({ ...llmOutcome('done'), metadata: { response_id: 'r-1' } });
      span?.fail(new Error('ignored after end'));
      span?.end(llmOutcome('ignored too'));
    });
    const [llm] = eventsOf(record, 'llm');
    expect(eventsOf(record, 'llm')).toHaveLength(1);
    expect(llm).toMatchObject({
      metadata: { attempt: 1, response_id: 'r-1' },
      error: null,
      ...llmOutcome('done'),
    });
    expect(eventsOf(record, 'tool')[0]?.parent_span_id).toBe(llm?.span_id);
  });

  it('fail() keeps the metadata known so far', async () => {
    const { record } = await recordValid(() => {
      beginLlmCall(LLM_INIT)?.fail(new Error('stream cut'), { chunks_received: 3 });
    });
    expect(eventsOf(record, 'llm')[0]).toMatchObject({
      response: null,
      error: { message: 'stream cut' },
      metadata: { chunks_received: 3 },
    });
  });

  it('a response with no JSON form is refused with VALUE_NOT_JSON; the seq is given up and the run stays sound', async () => {
    const { record } = await recordValid(async () => {
      const span = beginLlmCall(LLM_INIT);
      await expectRunbackError(
        () => span?.end({ response: { text: 'x', finish_reason: NaN as never, tool_calls: [] } }),
        'VALUE_NOT_JSON',
        /llm "gpt-test" response/,
      );
      return llmCall(LLM_INIT, async () => 'second', llmOutcome);
    });
    expect(eventsOf(record, 'llm').map((e) => e.seq)).toEqual([2]);
    expect(record.events.at(-1)?.metadata).toBeUndefined(); // no unfinished call left behind
  });

  it('stores a key projection; the replay key hashes the projected request', async () => {
    const call = (temperature: number, keyProjection?: { keep: string[] }) =>
      recordValid(() =>
        llmCall(
          {
            ...LLM_INIT,
            request: { ...LLM_INIT.request, params: { temperature } },
            ...(keyProjection && { keyProjection }),
          },
          async () => 'x',
          llmOutcome,
        ),
      );
    const projected = await Promise.all([
      call(0, { keep: ['messages'] }),
      call(1, { keep: ['messages'] }),
    ]);
    const plain = await Promise.all([call(0), call(1)]);
    expect(eventsOf(projected[0].record, 'llm')[0]).toMatchObject({
      key_projection: { keep: ['messages'] },
      request: { params: { temperature: 0 } },
    });
    const cassette = (r: { record: RecordJson }) => r.record.manifest.replay['cassette_digest'];
    expect(cassette(projected[0])).toBe(cassette(projected[1]));
    expect(cassette(plain[0])).not.toBe(cassette(plain[1]));
  });

  it('rejects a malformed key projection with a TypeError', async () => {
    await recordValid(async () => {
      expect(() => beginLlmCall({ ...LLM_INIT, keyProjection: { keep: [1] } as never })).toThrow(
        TypeError,
      );
    });
  });

  it('returns undefined outside a run and checks its arguments everywhere', () => {
    expect(beginLlmCall(LLM_INIT)).toBeUndefined();
    expect(() => beginLlmCall(null as never)).toThrow(TypeError);
    expect(() => beginLlmCall({ ...LLM_INIT, provider: 1 as never })).toThrow(/init\.provider/);
    expect(() => beginLlmCall({ ...LLM_INIT, modelId: undefined as never })).toThrow(
      /init\.modelId/,
    );
  });
});
