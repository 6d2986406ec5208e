// runback → OTLP: the export decodes with the protobufjs classes generated from the official
// OTLP .proto files, says the same thing after a protobuf round trip, carries the GenAI
// attributes, follows the record's span tree, and is deterministic.
import { readFileSync } from 'node:fs';
import { verifyJson } from '@runback/verify';
import { describe, expect, it } from 'vitest';
import { exportOtlp, importOtlp, OtlpError } from '../src/index.js';
import {
  decodedToPlain,
  ExportTraceServiceRequest,
  meaningOf,
  otlpJsonToProtoObject,
} from './support/proto.js';
import { EXAMPLE_PATH, FAILURE_PATH, readRecord } from './support/records.js';
import { at, attributesOf, listAt, spansOf, type JsonSpan } from './support/otlp-json.js';

function exportFile(path: string) {
  const text = readFileSync(path, 'utf8');
  return exportOtlp(JSON.parse(text), { verification: verifyJson(text) });
}

describe('exportOtlp', () => {
  it('decodes with the official OTLP protobuf classes and survives a protobuf round trip', () => {
    for (const path of [EXAMPLE_PATH, FAILURE_PATH]) {
      const json = JSON.parse(exportFile(path).json) as unknown;
      const protoObject = otlpJsonToProtoObject(json);
      const message = ExportTraceServiceRequest.fromObject(protoObject);
      expect(ExportTraceServiceRequest.verify(message)).toBeNull();
      const bytes = ExportTraceServiceRequest.encode(message).finish();
      expect(bytes.length).toBeGreaterThan(1000);
      // fromObject skips members it does not know: comparing after the binary round trip
      // shows every member the export wrote is an OTLP field, with its value intact.
      const decoded = decodedToPlain(ExportTraceServiceRequest.decode(bytes));
      expect(meaningOf(decoded)).toEqual(meaningOf(json));
      expect(JSON.stringify(decoded)).toContain('gen_ai.usage.input_tokens');
    }
  });

  it('writes one span per llm and tool event with the GenAI attributes', () => {
    const record = readRecord(EXAMPLE_PATH);
    const spans = spansOf(JSON.parse(exportFile(EXAMPLE_PATH).json));
    const llm = record.events.filter((e) => e['type'] === 'llm');
    const tools = record.events.filter((e) => e['type'] === 'tool');
    expect(spans).toHaveLength(1 + llm.length + tools.length);

    const chats = spans.filter((s) => attributesOf(s)['gen_ai.operation.name'] === 'chat');
    expect(chats).toHaveLength(llm.length);
    chats.forEach((span, i) => {
      const event = llm[i];
      const a = attributesOf(span);
      expect(span.name).toBe(`chat ${String(at(event, 'model', 'model_id'))}`);
      expect(span.kind).toBe(3); // SPAN_KIND_CLIENT
      expect(a['gen_ai.request.model']).toBe(at(event, 'model', 'model_id'));
      expect(a['gen_ai.response.model']).toBe(at(event, 'model', 'model_id'));
      expect(a['gen_ai.provider.name']).toBe(at(event, 'model', 'provider'));
      expect(a['gen_ai.system']).toBe(at(event, 'model', 'provider'));
      expect(a['gen_ai.usage.input_tokens']).toBe(at(event, 'usage', 'input_tokens'));
      expect(a['gen_ai.usage.output_tokens']).toBe(at(event, 'usage', 'output_tokens'));
      expect(a['gen_ai.response.finish_reasons']).toEqual([at(event, 'response', 'finish_reason')]);
      expect(a['gen_ai.request.temperature']).toBe(0);
      const input = JSON.parse(a['gen_ai.input.messages'] as string) as {
        role: string;
        parts: unknown[];
      }[];
      expect(input.map((m) => m.role)).toEqual(
        listAt(event, 'request', 'messages').map((m) => at(m, 'role')),
      );
      expect(JSON.parse(a['gen_ai.system_instructions'] as string)).toEqual([
        { type: 'text', content: at(event, 'request', 'system') },
      ]);
    });

    const executed = spans.filter(
      (s) => attributesOf(s)['gen_ai.operation.name'] === 'execute_tool',
    );
    expect(executed.map((s) => attributesOf(s)['gen_ai.tool.name'])).toEqual([
      'credit_score',
      'policy_rate',
    ]);
    expect(executed.map((s) => attributesOf(s)['gen_ai.tool.call.id'])).toEqual([
      'call_1',
      'call_2',
    ]);
    expect(
      JSON.parse(attributesOf(executed[0] as JsonSpan)['gen_ai.tool.call.arguments'] as string),
    ).toEqual({
      applicant_id: 'A-1029',
    });
    expect(
      JSON.parse(attributesOf(executed[0] as JsonSpan)['gen_ai.tool.call.result'] as string),
    ).toEqual({
      bureau: 'Equifax',
      score: 742,
    });
    // The model's tool calls appear in its output messages.
    const firstOut = JSON.parse(
      attributesOf(chats[0] as JsonSpan)['gen_ai.output.messages'] as string,
    );
    expect(firstOut[0].parts).toContainEqual(
      expect.objectContaining({ type: 'tool_call', id: 'call_1', name: 'credit_score' }),
    );
  });

  it('parents spans as the record does and puts digests and verdict on the root', () => {
    const record = readRecord(EXAMPLE_PATH);
    const spans = spansOf(JSON.parse(exportFile(EXAMPLE_PATH).json));
    const root = spans[0] as JsonSpan;
    expect(root.parentSpanId ?? '').toBe('');
    const a = attributesOf(root);
    expect(a['gen_ai.operation.name']).toBe('invoke_agent');
    expect(a['gen_ai.agent.name']).toBe('loan-approval-agent');
    expect(a['runback.content_digest']).toBe(record.manifest.content_digest);
    expect(a['runback.cassette_digest']).toBe(record.manifest.replay.cassette_digest);
    expect(a['runback.verify.verdict']).toBe('unverified');
    expect(a['runback.verify.signature']).toBe('valid-unpinned');
    expect(a['runback.verify.integrity']).toBe(true);
    expect(a['runback.signer.key_id']).toBe(
      record.manifest.signature?.alg === 'Ed25519' ? record.manifest.signature.key_id : '',
    );
    expect(root.startTimeUnixNano).toBe(`${Date.parse(record.run['started_at'] as string)}000000`);
    expect(root.endTimeUnixNano).toBe(`${Date.parse(record.run['ended_at'] as string)}000000`);

    const byRecordSpan = new Map(spans.map((s) => [attributesOf(s)['runback.span_id'], s]));
    for (const span of spans.slice(1)) {
      const parent = attributesOf(span)['runback.parent_span_id'] as string;
      const expected = parent === 'r' ? root : byRecordSpan.get(parent);
      expect(span.parentSpanId).toBe(expected?.spanId);
      expect(span.traceId).toBe(root.traceId);
    }
    // The tool t1 was called under the model call l1.
    expect((byRecordSpan.get('t1') as JsonSpan).parentSpanId).toBe(
      (byRecordSpan.get('l1') as JsonSpan).spanId,
    );
    // Reasoning and run events are span events; the env read under t1 sits on t1's span.
    expect((root.events ?? []).map((e) => e.name)).toEqual([
      'runback.run',
      'runback.reasoning',
      'runback.run',
    ]);
    expect(((byRecordSpan.get('t1') as JsonSpan).events ?? []).map((e) => e.name)).toEqual([
      'runback.env',
    ]);
  });

  it('marks a failed run and failed tool call with an error status', () => {
    const spans = spansOf(JSON.parse(exportFile(FAILURE_PATH).json));
    const root = spans[0] as JsonSpan;
    expect(root.status?.code).toBe(2);
    expect(root.status?.message).toBe('ticket system timed out after 3 attempts');
    const tool = spans.find(
      (s) => attributesOf(s)['gen_ai.operation.name'] === 'execute_tool',
    ) as JsonSpan;
    expect(tool.status?.code).toBe(2);
    expect(attributesOf(tool)['error.type']).toBe('ToolError');
  });

  it('gives the same bytes for the same record, and other ids for another run', () => {
    expect(exportFile(EXAMPLE_PATH).json).toBe(exportFile(EXAMPLE_PATH).json);
    const a = spansOf(JSON.parse(exportFile(EXAMPLE_PATH).json));
    const b = spansOf(JSON.parse(exportFile(FAILURE_PATH).json));
    expect(a[0]?.traceId).not.toBe(b[0]?.traceId);
    expect(new Set(a.map((s) => s.spanId)).size).toBe(a.length);
  });

  it('says invalid on the root span of a tampered record, and refuses what is not a record', () => {
    const record = readRecord(EXAMPLE_PATH) as unknown as { events: Record<string, unknown>[] };
    (record.events[2] as Record<string, unknown>)['output'] = { bureau: 'Equifax', score: 800 };
    const text = JSON.stringify(record);
    const spans = spansOf(JSON.parse(exportOtlp(record, { verification: verifyJson(text) }).json));
    expect(attributesOf(spans[0] as JsonSpan)['runback.verify.verdict']).toBe('invalid');
    expect(attributesOf(spans[0] as JsonSpan)['runback.verify.errors']).toContain(
      'CHAIN_HASH_MISMATCH',
    );

    const bad: [unknown, RegExp][] = [
      [[], /expected the record to be a JSON object, got an array/],
      [{ manifest: {}, run: {}, events: {} }, /expected events to be an array, got object/],
      [
        { manifest: { run_id: 'r' }, run: {}, events: [{ type: 'llm', seq: -1, span_id: 'a' }] },
        /events\[0\]\.seq/,
      ],
      [
        {
          manifest: { run_id: 'r' },
          run: {},
          events: [{ type: 'llm', seq: 0, span_id: 'a', ts_start: 'yesterday' }],
        },
        /ts_start to be an ISO 8601/,
      ],
    ];
    for (const [value, message] of bad) {
      let error: unknown;
      try {
        exportOtlp(value, { verification: verifyJson(JSON.stringify(value)) });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(OtlpError);
      expect((error as OtlpError).code).toBe('OTLP_NOT_A_RECORD');
      expect((error as OtlpError).message).toMatch(message);
    }
  });
  it('with content: false, writes no prompts, answers or tool data, and keeps the rest', () => {
    const text = readFileSync(EXAMPLE_PATH, 'utf8');
    const json = exportOtlp(JSON.parse(text), {
      verification: verifyJson(text),
      content: false,
    }).json;
    for (const secret of [
      'A-1029',
      'Equifax',
      'small-business',
      'policy-check',
      '"key":"runback.event"',
      '"key":"runback.run"',
    ]) {
      expect(json).not.toContain(secret);
    }
    for (const gone of [
      'gen_ai.input.messages',
      'gen_ai.output.messages',
      'gen_ai.tool.call.arguments',
      'gen_ai.tool.call.result',
      'gen_ai.system_instructions',
    ]) {
      expect(json).not.toContain(gone);
    }
    const spans = spansOf(JSON.parse(json));
    expect(spans.map((s) => s.name)).toEqual(
      spansOf(JSON.parse(exportFile(EXAMPLE_PATH).json)).map((s) => s.name),
    );
    expect(attributesOf(spans[1] as JsonSpan)['gen_ai.usage.input_tokens']).toBe(428);
    expect(attributesOf(spans[2] as JsonSpan)['gen_ai.tool.name']).toBe('credit_score');
    expect(attributesOf(spans[0] as JsonSpan)['runback.content_digest']).toBeDefined();
    const imported = importOtlp(json);
    expect(imported.source).toBe('genai');
    expect(imported.events.filter((e) => e['type'] === 'tool').map((e) => e['input'])).toEqual([
      null,
      null,
    ]);
  });
  it('exports a record whose times are not ISO 8601 (a reader accepts any non-empty text)', () => {
    const record = readRecord(EXAMPLE_PATH) as unknown as { events: Record<string, unknown>[] };
    (record.events[2] as Record<string, unknown>)['ts_start'] = 'shortly after the first call';
    (record.events[2] as Record<string, unknown>)['ts_end'] = 'later';
    const spans = spansOf(
      JSON.parse(exportOtlp(record, { verification: verifyJson(JSON.stringify(record)) }).json),
    );
    const tool = spans.find(
      (s) => attributesOf(s)['gen_ai.tool.name'] === 'credit_score',
    ) as JsonSpan;
    const chat = spans[1] as JsonSpan;
    expect(tool.startTimeUnixNano).toBe(chat.startTimeUnixNano);
    expect(tool.endTimeUnixNano).toBe(tool.startTimeUnixNano);
  });
});
