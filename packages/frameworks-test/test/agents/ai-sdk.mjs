// An AI SDK agent that asks for structured output: generateObject with a zod schema, then
// streamObject printing each partial object as it streams, on the OpenAI chat completions
// provider. Nothing in it knows about runback.
import { createOpenAI } from '@ai-sdk/openai';
import { generateObject, streamObject } from 'ai';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

const openai = createOpenAI({ baseURL: `${process.env.MOCK_LLM_URL}/v1` });
const model = openai.chat('gpt-4o-mini');
const forecast = z.object({ city: z.string(), temp_c: z.number(), sky: z.string() });

const { object, usage } = await generateObject({
  model,
  schema: forecast,
  prompt: 'The weather in Paris, as JSON.',
  maxRetries: 0,
});
console.log(`object ${JSON.stringify(object)} tokens ${usage.totalTokens}`);

const stream = streamObject({
  model,
  schema: z.object({ cities: z.array(forecast) }),
  prompt: 'The weather in Paris and Lyon, as JSON.',
  maxRetries: 0,
});
for await (const partial of stream.partialObjectStream) {
  console.log(`partial ${JSON.stringify(partial)}`);
}
console.log(`final ${JSON.stringify(await stream.object)} ${randomUUID()} ${Date.now()}`);
