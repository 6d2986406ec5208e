// A LangChain.js agent (ChatOpenAI with bound tools, a hand-written tool loop): the model asks
// for two lookups at once; they run concurrently, each fetching an internal service and reading
// the clock and a UUID after its answer arrives, and the slower one is asked for first. Nothing
// in it knows about runback.
import { ChatOpenAI } from '@langchain/openai';
import { tool } from '@langchain/core/tools';
import { HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

const service = process.env.SERVICE_URL;
const lookup = tool(
  async ({ city }) => {
    const response = await fetch(`${service}/weather?city=${encodeURIComponent(city)}`);
    const weather = await response.json();
    const result = { ...weather, lookup_id: randomUUID(), at: new Date().toISOString() };
    console.log(`tool lookup ${JSON.stringify(result)}`);
    return JSON.stringify(result);
  },
  {
    name: 'lookup',
    description: 'Current weather in a city',
    schema: z.object({ city: z.string() }),
  },
);

const model = new ChatOpenAI({
  model: 'gpt-4o-mini',
  temperature: 0,
  maxRetries: 0,
  configuration: { baseURL: `${process.env.MOCK_LLM_URL}/v1` },
}).bindTools([lookup]);

const messages = [
  new SystemMessage('You are a weather assistant.'),
  new HumanMessage(process.env.QUESTION ?? 'Compare the weather in Paris and Lyon.'),
];
const first = await model.invoke(messages);
messages.push(first);
const results = await Promise.all(first.tool_calls.map((call) => lookup.invoke(call)));
for (const result of results)
  messages.push(result instanceof ToolMessage ? result : new ToolMessage(result));
let text = '';
for await (const chunk of await model.stream(messages)) text += chunk.content;
console.log(`answer ${text}`);
console.log(`run ${randomUUID()} ${Math.random()}`);
