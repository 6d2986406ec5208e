// An OpenAI Agents SDK agent on the Responses API: the model asks for two lookups at once; the
// SDK runs the function tools concurrently, each fetching an internal service and reading a UUID
// and the clock after its answer arrives. AGENT_TRACING=1 turns the SDK's tracing on, its
// exporter pointed at the internal service (trace and span ids are UUIDs, their times the clock,
// and the export is a fetch whose body holds them all). Nothing in it knows about runback.
import {
  Agent,
  BatchTraceProcessor,
  OpenAITracingExporter,
  getGlobalTraceProvider,
  run,
  setDefaultOpenAIClient,
  setTraceProcessors,
  setTracingDisabled,
  tool,
} from '@openai/agents';
import OpenAI from 'openai';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

const service = process.env.SERVICE_URL;
const tracing = process.env.AGENT_TRACING === '1';
setDefaultOpenAIClient(new OpenAI({ baseURL: `${process.env.MOCK_LLM_URL}/v1`, maxRetries: 0 }));
setTracingDisabled(!tracing);
if (tracing) {
  const exporter = new OpenAITracingExporter({ endpoint: `${service}/v1/traces/ingest` });
  setTraceProcessors([new BatchTraceProcessor(exporter)]);
}

const lookup = tool({
  name: 'lookup',
  description: 'Current weather in a city',
  parameters: z.object({ city: z.string() }),
  async execute({ city }) {
    const response = await fetch(`${service}/weather?city=${encodeURIComponent(city)}`);
    const weather = await response.json();
    const result = { ...weather, lookup_id: randomUUID(), at: new Date().toISOString() };
    console.log(`tool lookup ${JSON.stringify(result)}`);
    return JSON.stringify(result);
  },
});

const agent = new Agent({
  name: 'Weather',
  instructions: 'You are a weather assistant.',
  model: 'gpt-4.1-mini',
  tools: [lookup],
});
const result = await run(agent, 'Compare the weather in Paris and Lyon.');
console.log(`answer ${result.finalOutput}`);
console.log(`run ${randomUUID()} ${Math.random()}`);
if (tracing) await getGlobalTraceProvider().forceFlush();
