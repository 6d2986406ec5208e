// An AI SDK call (LanguageModelV3CallOptions) as the llm event's request (docs/spec.md
// §5: `request {system, messages[], tools[], params}`). The request is part of the replay
// key, so it holds what determines the answer and nothing that varies from call to call.
import type { LanguageModelV3CallOptions, LanguageModelV3Message } from '@ai-sdk/provider';
import type { LlmRequest } from '../../core/events.js';
import { toJson, toJsonObject } from './json.js';

type SystemMessage = Extract<LanguageModelV3Message, { role: 'system' }>;

/**
 * The request of a generate (`stream: false`) or stream call. `params` holds every other call
 * option, so options added by later AI SDK versions are recorded too, except two that are not
 * part of what the model is asked: `abortSignal` (not data) and `headers` (transport, and they
 * may carry credentials). A stream call adds `stream: true`: it is answered in another form
 * (parts rather than a result), so it must not share a replay key with a generate call.
 */
export function requestOf(options: LanguageModelV3CallOptions, stream: boolean): LlmRequest {
  const { prompt, tools, abortSignal: _signal, headers: _headers, ...rest } = options;
  const label = stream ? 'AI SDK stream request' : 'AI SDK generate request';
  const leading = leadingSystemCount(prompt);
  return {
    system: systemOf(prompt.slice(0, leading) as SystemMessage[], label),
    messages: prompt.slice(leading).map((message) => toJson(message, label)),
    tools: (tools ?? []).map((tool) => toJson(tool, label)),
    params: toJsonObject(stream ? { ...rest, stream: true } : rest, label),
  };
}

/**
 * How many system messages open the prompt. Only those become `system`: a system message later
 * in the conversation stays in `messages` at its place, so the request loses nothing.
 */
function leadingSystemCount(prompt: readonly LanguageModelV3Message[]): number {
  const first = prompt.findIndex((message) => message.role !== 'system');
  return first === -1 ? prompt.length : first;
}

/**
 * `system`: null without one, its text for one, the texts in order for several. A system
 * message with provider options (e.g. a cache marker) is kept whole: the options change what
 * is sent.
 */
function systemOf(messages: readonly SystemMessage[], label: string): unknown {
  if (messages.length === 0) return null;
  if (messages.some((message) => message.providerOptions !== undefined)) {
    return messages.map((message) => toJson(message, label));
  }
  return messages.length === 1 ? messages[0]?.content : messages.map((message) => message.content);
}
