// A Mastra agent with one tool (createTool, zod schemas) on an AI SDK OpenAI chat model: the
// model asks for two lookups at once, each fetching an internal service and reading a UUID and
// the clock; then it answers. Nothing in it knows about runback.
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { createOpenAI } from '@ai-sdk/openai-v2';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

const service = process.env.SERVICE_URL;
const lookup = createTool({
  id: 'lookup',
  description: 'Current weather in a city',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ city: z.string(), temp_c: z.number(), lookup_id: z.string() }),
  execute: async ({ context }) => {
    const response = await fetch(`${service}/weather?city=${encodeURIComponent(context.city)}`);
    const weather = await response.json();
    const result = { ...weather, lookup_id: randomUUID(), at: new Date().toISOString() };
    console.log(`tool lookup ${JSON.stringify(result)}`);
    return result;
  },
});

const openai = createOpenAI({ baseURL: `${process.env.MOCK_LLM_URL}/v1` });
const agent = new Agent({
  name: 'weather',
  instructions: 'You are a weather assistant.',
  model: openai.chat('gpt-4o-mini'),
  tools: { lookup },
});
const result = await agent.generate('Compare the weather in Paris and Lyon.', { maxSteps: 3 });
console.log(`answer ${result.text}`);
console.log(`run ${randomUUID()} ${Math.random()}`);
