// The sealed event texts of a journal, in order: every newline-terminated line after the header,
// without its MAC. Given the journal's MAC key, every line's MAC is checked.
import { RunbackError } from '../core/errors.js';
import { macMatches, splitLine } from './auth.js';
import { readLines } from './lines.js';

/** Yields each complete event line of the journal at `path` (the header is skipped). */
export async function* journalEventTexts(
  path: string,
  macKey?: Uint8Array,
): AsyncGenerator<string> {
  for await (const line of readLines(path)) {
    if (line.number === 1 || !line.terminated) continue;
    if (macKey === undefined) {
      yield line.text;
      continue;
    }
    const { text, mac } = splitLine(line.text);
    if (mac === undefined || !macMatches(macKey, text, mac)) {
      throw new RunbackError(
        'JOURNAL_UNAUTHENTIC',
        `journal ${path}, line ${line.number}: expected a line MAC under this run's key, got ${mac === undefined ? 'none' : 'one that does not match'}; the line was written or changed without the key`,
      );
    }
    yield text;
  }
}
