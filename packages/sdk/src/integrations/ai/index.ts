// @runback/sdk/ai: record Vercel AI SDK (v6, LanguageModelV3) model calls as `llm` events.
//
//   import { generateText, wrapLanguageModel } from 'ai';
//   import { record } from '@runback/sdk';
//   import { runbackMiddleware } from '@runback/sdk/ai';
//
//   const model = wrapLanguageModel({ model: openai('gpt-4o-mini'), middleware: runbackMiddleware() });
//   await record({ name: 'triage', out: 'run.json', signer }, () => generateText({ model, prompt }));
//
// The subpath imports nothing from `ai` at run time (only its types), so @runback/sdk works
// without it.
export { runbackMiddleware } from './middleware.js';
export type { RunbackMiddlewareOptions } from './options.js';
