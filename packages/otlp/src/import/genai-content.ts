// GenAI content attributes → the request and response of a runback llm event. Content comes
// as the current conventions write it (gen_ai.input.messages / gen_ai.output.messages: JSON
// text or structured values of messages with typed parts), or as older instrumentations
// flatten it (gen_ai.prompt.N.role / .content, gen_ai.completion.N.*). Messages are stored in
// the OpenAI chat shape ({role, content, tool_calls, tool_call_id}), the shape most recorded
// requests already have.
import { readJsonStrict } from '@runback/verify';
import { isRecord, jsonText, stringOr } from '../json-text.js';
import type { AttributeValue } from './otlp-spans.js';

type Attrs = ReadonlyMap<string, AttributeValue>;

/** A structured attribute: its value, or the JSON inside a string value; else undefined. */
export function structured(value: AttributeValue | undefined): unknown {
  if (typeof value !== 'string') return value ?? undefined;
  const t = value.trim();
  if (!(t.startsWith('[') || t.startsWith('{'))) return undefined;
  const parsed = readJsonStrict(t);
  return parsed.ok ? parsed.value : undefined;
}

/** A tool's arguments or result: JSON text is parsed; other text stays text. */
export function jsonOrText(value: AttributeValue | undefined): unknown {
  if (value === undefined) return null;
  if (typeof value !== 'string') return value;
  // Strict reading (no duplicate members, bounded depth): what is stored must hash one way.
  const parsed = readJsonStrict(value);
  return parsed.ok ? parsed.value : value;
}

/** `request.system`: the system instructions as text. */
export function systemOf(attrs: Attrs): string | null {
  const parts = structured(attrs.get('gen_ai.system_instructions'));
  if (Array.isArray(parts)) {
    const text = parts
      .map(textOfPart)
      .filter((t) => t !== '')
      .join('\n');
    return text === '' ? null : text;
  }
  const raw = attrs.get('gen_ai.system_instructions');
  return typeof raw === 'string' && raw !== '' ? raw : null;
}

/** `request.messages`. */
export function inputMessagesOf(attrs: Attrs): unknown[] {
  const messages =
    structured(attrs.get('gen_ai.input.messages')) ?? structured(attrs.get('gen_ai.prompt'));
  if (Array.isArray(messages)) return messages.flatMap(toChatMessages);
  return flattened(attrs, 'gen_ai.prompt');
}

/** `response`: text, reasoning, finish_reason and tool_calls of the first output message. */
export function responseOf(attrs: Attrs): Record<string, unknown> {
  const finishes = attrs.get('gen_ai.response.finish_reasons');
  const firstFinish =
    Array.isArray(finishes) && typeof finishes[0] === 'string' ? finishes[0] : null;
  let message: unknown = undefined;
  const output =
    structured(attrs.get('gen_ai.output.messages')) ?? structured(attrs.get('gen_ai.completion'));
  if (Array.isArray(output))
    message =
      output.find((m) => isRecord(m) && (m['role'] ?? 'assistant') === 'assistant') ?? output[0];
  if (message === undefined) {
    const flat = flattened(attrs, 'gen_ai.completion');
    message = flat[0];
  }
  const text: string[] = [];
  const reasoning: string[] = [];
  const calls: Record<string, unknown>[] = [];
  let finish: string | null = firstFinish;
  if (isRecord(message)) {
    finish = stringOr(message['finish_reason']) ?? finish;
    const parts = message['parts'];
    if (Array.isArray(parts)) {
      for (const part of parts) {
        if (!isRecord(part)) continue;
        if (part['type'] === 'tool_call') calls.push(toolCallOf(part));
        else if (part['type'] === 'reasoning') reasoning.push(textOfPart(part));
        else if (part['type'] === 'text') text.push(textOfPart(part));
      }
    } else {
      if (typeof message['content'] === 'string') text.push(message['content']);
      const legacy = message['tool_calls'];
      if (Array.isArray(legacy))
        for (const call of legacy) if (isRecord(call)) calls.push(toolCallOf(call));
    }
  }
  return {
    text: text.length === 0 ? null : text.join(''),
    reasoning: reasoning.length === 0 ? null : reasoning.join(''),
    finish_reason: finish,
    tool_calls: calls,
  };
}

/** `request.tools` from gen_ai.tool.definitions. */
export function toolsOf(attrs: Attrs): unknown[] {
  const defs = structured(attrs.get('gen_ai.tool.definitions'));
  if (!Array.isArray(defs)) return [];
  return defs.map((d: unknown) => {
    if (!isRecord(d)) return d;
    const fn = isRecord(d['function']) ? d['function'] : d;
    return {
      name: stringOr(fn['name']) ?? '',
      ...(typeof fn['description'] === 'string' ? { description: fn['description'] } : {}),
      ...(fn['parameters'] === undefined ? {} : { parameters: fn['parameters'] }),
    };
  });
}

/** One conventions message (role + parts) as chat messages (a tool response is its own). */
function toChatMessages(message: unknown): unknown[] {
  if (!isRecord(message)) return [message];
  const role = stringOr(message['role']) ?? 'user';
  const parts = message['parts'];
  if (!Array.isArray(parts)) return [message];
  const out: Record<string, unknown>[] = [];
  const text: string[] = [];
  const other: unknown[] = [];
  const calls: unknown[] = [];
  for (const part of parts) {
    if (!isRecord(part)) {
      other.push(part);
      continue;
    }
    switch (part['type']) {
      case 'text':
        text.push(textOfPart(part));
        break;
      case 'tool_call': {
        const call = toolCallOf(part);
        calls.push({
          id: call['tool_call_id'],
          type: 'function',
          function: {
            name: call['tool_name'],
            arguments:
              typeof part['arguments'] === 'string'
                ? part['arguments']
                : jsonText(part['arguments'] ?? null),
          },
        });
        break;
      }
      case 'tool_call_response': {
        const response = part['response'] ?? part['result'] ?? null;
        out.push({
          role: 'tool',
          tool_call_id: stringOr(part['id']) ?? '',
          content: typeof response === 'string' ? response : jsonText(response),
        });
        break;
      }
      default:
        other.push(part);
    }
  }
  if (text.length > 0 || other.length > 0 || calls.length > 0 || out.length === 0) {
    const content =
      other.length === 0
        ? text.join('')
        : [...text.map((t) => ({ type: 'text', text: t })), ...other];
    out.unshift({
      role,
      content: calls.length > 0 && text.length === 0 && other.length === 0 ? null : content,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
      ...(typeof message['name'] === 'string' ? { name: message['name'] } : {}),
    });
  }
  return out;
}

/** A tool_call part (or a chat tool call) as runback's {tool_call_id, tool_name, input}. */
function toolCallOf(part: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const fn = isRecord(part['function']) ? part['function'] : undefined;
  const args = part['arguments'] ?? fn?.['arguments'] ?? null;
  return {
    tool_call_id: stringOr(part['id']) ?? null,
    tool_name: stringOr(part['name']) ?? stringOr(fn?.['name']) ?? '',
    input: typeof args === 'string' ? jsonOrText(args) : args,
  };
}

function textOfPart(part: unknown): string {
  if (typeof part === 'string') return part;
  if (!isRecord(part)) return '';
  return stringOr(part['content']) ?? stringOr(part['text']) ?? '';
}

/** gen_ai.prompt.0.role, gen_ai.prompt.0.content, … as chat messages, in index order. */
function flattened(attrs: Attrs, prefix: string): Record<string, unknown>[] {
  const byIndex = new Map<number, Record<string, unknown>>();
  const pattern = new RegExp(
    `^${prefix.replace(/\./g, '\\.')}\\.(\\d+)\\.(role|content|finish_reason|tool_call_id)$`,
  );
  for (const [key, value] of attrs) {
    const m = pattern.exec(key);
    if (m === null) continue;
    const index = Number(m[1]);
    const entry = byIndex.get(index) ?? {};
    entry[m[2] as string] = value;
    byIndex.set(index, entry);
  }
  return [...byIndex.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, message]) => ({ role: 'user', ...message }));
}
