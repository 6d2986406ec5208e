// Recognising a model API call from its method, URL and headers alone: the body is not read,
// so a request that is not a model call is passed on untouched.
import { anthropicMessages } from './anthropic-messages.js';
import type { ProviderCodec } from './codec.js';
import { openaiChat } from './openai-chat.js';
import { openaiResponses } from './openai-responses.js';

const CODECS: readonly ProviderCodec[] = [openaiChat, openaiResponses, anthropicMessages];

/** The codec of the API a request calls, or undefined when it calls none that runback knows. */
export function codecFor(method: string, url: string, headers: Headers): ProviderCodec | undefined {
  if (method.toUpperCase() !== 'POST') return undefined;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  return CODECS.find((codec) => codec.matches(path, headers));
}
