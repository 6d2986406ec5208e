// The sealed event texts of a journal, in order: every newline-terminated line after the header.
import { readLines } from './lines.js';

/** Yields each complete event line of the journal at `path` (the header is skipped). */
export async function* journalEventTexts(path: string): AsyncGenerator<string> {
  for await (const line of readLines(path)) {
    if (line.number === 1 || !line.terminated) continue;
    yield line.text;
  }
}
