// The wire form of server-sent events as the providers write them: an optional `event:` line,
// one `data:` line (compact JSON, or raw text such as `[DONE]`), a blank line.

/** One event to send. */
export interface SseFrame {
  readonly event?: string;
  readonly data: unknown;
}

/** The exact text of one event. */
export function formatSse(frame: SseFrame): string {
  const data = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data);
  return `${frame.event === undefined ? '' : `event: ${frame.event}\n`}data: ${data}\n\n`;
}

/** Typed events (OpenAI Responses, Anthropic) name each event after its data's `type`. */
export function typed(
  ...data: readonly ({ readonly type: string } & Record<string, unknown>)[]
): SseFrame[] {
  return data.map((item) => ({ event: item.type, data: item }));
}
