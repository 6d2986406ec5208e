// The attributes of the span that stands for one llm or tool event, under the GenAI semantic
// conventions, and the runback.* attributes that let an importer rebuild the event exactly.
import type { Attributes } from '@opentelemetry/api';
import { canonicalWithout } from '@runback/canonical';
import { isRecord, jsonText, numberOr, stringOr } from '../json-text.js';
import * as N from '../names.js';
import type { EventView } from './record-view.js';
import {
  inputMessages,
  outputMessages,
  systemInstructions,
  toolDefinitions,
} from './genai-content.js';

/** Request parameters with a GenAI attribute, by the names providers use for them. */
const PARAMS: ReadonlyArray<readonly [string, readonly string[]]> = [
  [N.ATTR_GEN_AI_REQUEST_TEMPERATURE, ['temperature']],
  [N.ATTR_GEN_AI_REQUEST_TOP_P, ['top_p']],
  [N.ATTR_GEN_AI_REQUEST_TOP_K, ['top_k']],
  [N.ATTR_GEN_AI_REQUEST_MAX_TOKENS, ['max_tokens', 'max_completion_tokens', 'max_output_tokens']],
  [N.ATTR_GEN_AI_REQUEST_FREQUENCY_PENALTY, ['frequency_penalty']],
  [N.ATTR_GEN_AI_REQUEST_PRESENCE_PENALTY, ['presence_penalty']],
  [N.ATTR_GEN_AI_REQUEST_SEED, ['seed']],
];

/**
 * What every exported span carries about its event; the event's JSON only with `content`
 * (it holds the prompts, answers and tool data).
 */
export function baseAttributes(view: EventView, content: boolean): Attributes {
  return {
    [N.ATTR_RUNBACK_EVENT_INDEX]: view.index,
    [N.ATTR_RUNBACK_SEQ]: view.seq,
    [N.ATTR_RUNBACK_SPAN_ID]: view.spanId,
    ...(view.parentSpanId === null ? {} : { [N.ATTR_RUNBACK_PARENT_SPAN_ID]: view.parentSpanId }),
    ...(content ? { [N.ATTR_RUNBACK_EVENT]: eventJson(view.event) } : {}),
  };
}

/** The event as canonical JSON without its `_hash` (the chain recomputes it on import). */
export function eventJson(event: Readonly<Record<string, unknown>>): string {
  return canonicalWithout(event, '_hash');
}

/** A model call: gen_ai.operation.name "chat"; messages and tool definitions with `content`. */
export function llmAttributes(
  view: EventView,
  content: boolean,
): { name: string; attributes: Attributes } {
  const e = view.event;
  const model = isRecord(e['model']) ? e['model'] : {};
  const provider = stringOr(model['provider']);
  const modelId = stringOr(model['model_id']);
  const request = isRecord(e['request']) ? e['request'] : {};
  const response = isRecord(e['response']) ? e['response'] : undefined;
  const usage = isRecord(e['usage']) ? e['usage'] : {};
  const metadata = isRecord(e['metadata']) ? e['metadata'] : {};
  const params = isRecord(request['params']) ? request['params'] : {};
  const a: Attributes = {
    [N.ATTR_GEN_AI_OPERATION_NAME]: N.GEN_AI_OPERATION_NAME_VALUE_CHAT,
  };
  if (provider !== undefined) {
    a[N.ATTR_GEN_AI_PROVIDER_NAME] = provider;
    // The name older backends group by (deprecated in favour of gen_ai.provider.name).
    a[N.ATTR_GEN_AI_SYSTEM] = provider;
  }
  if (modelId !== undefined) {
    a[N.ATTR_GEN_AI_REQUEST_MODEL] = modelId;
    a[N.ATTR_GEN_AI_RESPONSE_MODEL] = stringOr(metadata['response_model']) ?? modelId;
  }
  for (const [attribute, names] of PARAMS) {
    for (const name of names) {
      const value = numberOr(params[name]);
      if (value !== undefined) {
        a[attribute] = value;
        break;
      }
    }
  }
  const stop = params['stop'] ?? params['stop_sequences'];
  if (typeof stop === 'string') a[N.ATTR_GEN_AI_REQUEST_STOP_SEQUENCES] = [stop];
  else if (Array.isArray(stop) && stop.every((s) => typeof s === 'string'))
    a[N.ATTR_GEN_AI_REQUEST_STOP_SEQUENCES] = stop;
  const responseId = stringOr(metadata['response_id']);
  if (responseId !== undefined) a[N.ATTR_GEN_AI_RESPONSE_ID] = responseId;
  const finish = stringOr(response?.['finish_reason']);
  if (finish !== undefined) a[N.ATTR_GEN_AI_RESPONSE_FINISH_REASONS] = [finish];
  const input = numberOr(usage['input_tokens']);
  const output = numberOr(usage['output_tokens']);
  if (input !== undefined) a[N.ATTR_GEN_AI_USAGE_INPUT_TOKENS] = input;
  if (output !== undefined) a[N.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS] = output;
  if (content) {
    putJson(a, N.ATTR_GEN_AI_SYSTEM_INSTRUCTIONS, systemInstructions(request['system']));
    putJson(a, N.ATTR_GEN_AI_INPUT_MESSAGES, inputMessages(request['messages']));
    putJson(a, N.ATTR_GEN_AI_OUTPUT_MESSAGES, outputMessages(response));
    putJson(a, N.ATTR_GEN_AI_TOOL_DEFINITIONS, toolDefinitions(request['tools']));
  }
  errorType(a, e['error']);
  const operation = N.GEN_AI_OPERATION_NAME_VALUE_CHAT;
  return {
    name: modelId === undefined ? operation : `${operation} ${modelId}`,
    attributes: { ...a, ...baseAttributes(view, content) },
  };
}

/** A tool call: gen_ai.operation.name "execute_tool"; arguments and result with `content`. */
export function toolAttributes(
  view: EventView,
  content: boolean,
): { name: string; attributes: Attributes } {
  const e = view.event;
  const toolName = stringOr(e['tool_name']);
  const callId = stringOr(e['tool_call_id']);
  const a: Attributes = {
    [N.ATTR_GEN_AI_OPERATION_NAME]: N.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  };
  if (toolName !== undefined) a[N.ATTR_GEN_AI_TOOL_NAME] = toolName;
  if (callId !== undefined) a[N.ATTR_GEN_AI_TOOL_CALL_ID] = callId;
  a['gen_ai.tool.type'] = 'function';
  if (content && e['input'] !== undefined)
    a[N.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = jsonText(e['input']);
  if (content && e['output'] !== undefined && e['output'] !== null)
    a[N.ATTR_GEN_AI_TOOL_CALL_RESULT] = jsonText(e['output']);
  errorType(a, e['error']);
  const operation = N.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL;
  return {
    name: toolName === undefined ? operation : `${operation} ${toolName}`,
    attributes: { ...a, ...baseAttributes(view, content) },
  };
}

/** The error's class name as error.type (the conventions' name for why an operation failed). */
function errorType(a: Attributes, error: unknown): void {
  if (error === null || error === undefined || error === false) return;
  a[N.ATTR_ERROR_TYPE] = (isRecord(error) ? stringOr(error['name']) : undefined) ?? 'Error';
}

/** The error's message for the span status, when the event failed. */
export function errorMessage(error: unknown): string | undefined {
  if (error === null || error === undefined || error === false) return undefined;
  if (isRecord(error)) return stringOr(error['message']) ?? jsonText(error);
  return typeof error === 'string' ? error : jsonText(error);
}

function putJson(a: Attributes, name: string, value: unknown): void {
  if (value !== undefined) a[name] = jsonText(value);
}
