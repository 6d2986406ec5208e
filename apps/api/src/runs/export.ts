// The customer export: a sealed `runback.audit/v2` record rebuilt from the stored manifest,
// summary and events, streamed page by page (never built as one string).
import type { Store } from '../store/types.js';

const PAGE = 500;

/** The record's text before the first event, from the stored manifest and summary. */
function head(manifest: string, summary: string): string {
  return `{"$schema":"runback.audit/v2","manifest":${manifest},"run":${summary},"events":[`;
}

/** A byte stream of the record, events read from the store in array order. */
export function exportStream(
  store: Store,
  runId: string,
  manifest: string,
  summary: string,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = -1;
  let started = false;
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(head(manifest, summary)));
        return;
      }
      const page = await store.eventsByPosition(runId, after, PAGE);
      if (page.length > 0) {
        let text = '';
        for (const row of page) {
          text += (first ? '' : ',') + row.body;
          first = false;
        }
        after = (page[page.length - 1] as { position: number }).position;
        controller.enqueue(encoder.encode(text));
      }
      if (page.length < PAGE) {
        controller.enqueue(encoder.encode(']}'));
        controller.close();
      }
    },
  });
}

/** The whole export as text (for the service's own checks and the summary endpoint). */
export async function exportText(
  store: Store,
  runId: string,
  manifest: string,
  summary: string,
): Promise<string> {
  const reader = exportStream(store, runId, manifest, summary).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
