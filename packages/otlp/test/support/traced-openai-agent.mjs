// A small agent instrumented the way an OpenTelemetry user instruments one: the official SDK,
// @opentelemetry/instrumentation-openai around the real `openai` client, and the OTLP/HTTP
// JSON exporter. It asks a model (a mock server), runs the tool the model asks for, and asks
// again; the agent and tool spans are its own, under GenAI names. Environment: OPENAI_BASE_URL,
// OTLP_TRACES_URL.
import { context, trace, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createRequire } from 'node:module';

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'weather-agent' }),
  spanProcessors: [
    new SimpleSpanProcessor(new OTLPTraceExporter({ url: process.env.OTLP_TRACES_URL })),
  ],
});
trace.setGlobalTracerProvider(provider);
registerInstrumentations({ instrumentations: [new OpenAIInstrumentation()] });

// The client is loaded after the instrumentation is registered, through require(), which is
// what the instrumentation hooks (an ESM import would need its loader hook).
const OpenAI = createRequire(import.meta.url)('openai');
const client = new OpenAI({
  apiKey: 'sk-test',
  baseURL: process.env.OPENAI_BASE_URL,
  maxRetries: 0,
});
const tracer = trace.getTracer('weather-agent', '1.0.0');
const tools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    },
  },
];

async function main() {
  await tracer.startActiveSpan(
    'invoke_agent weather-agent',
    {
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'weather-agent' },
    },
    async (agent) => {
      const messages = [{ role: 'user', content: 'Weather in Paris?' }];
      const first = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages,
        tools,
        temperature: 0,
      });
      const call = first.choices[0].message.tool_calls[0];
      const result = await tracer.startActiveSpan(
        `execute_tool ${call.function.name}`,
        {
          attributes: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': call.function.name,
            'gen_ai.tool.call.id': call.id,
            'gen_ai.tool.call.arguments': call.function.arguments,
          },
        },
        async (span) => {
          const out = { city: 'Paris', celsius: 21 };
          span.setAttribute('gen_ai.tool.call.result', JSON.stringify(out));
          span.end();
          return out;
        },
      );
      messages.push(first.choices[0].message, {
        role: 'tool',
        tool_call_id: call.id,
        content: JSON.stringify(result),
      });
      const second = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages,
        tools,
        temperature: 0,
      });
      agent.setStatus({ code: SpanStatusCode.OK });
      agent.end();
      process.stdout.write(second.choices[0].message.content + '\n');
    },
  );
  await provider.forceFlush();
  await provider.shutdown();
}

try {
  await main();
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
}
