// Reading a journal line by line, streaming (a journal can be far larger than memory allows to
// hold at once), and telling a newline-terminated line from a torn final one.
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** One line of a journal. */
export interface JournalLine {
  /** 1-based line number. */
  readonly number: number;
  /** The line without its newline. */
  readonly text: string;
  /** false only for a final line with no newline after it: a write cut short by a crash. */
  readonly terminated: boolean;
}

/** Yields the lines of a file in order. */
export async function* readLines(path: string): AsyncGenerator<JournalLine> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let number = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    rest += decoder.write(chunk as Buffer);
    let start = 0;
    let newline = rest.indexOf('\n', start);
    while (newline !== -1) {
      yield { number: ++number, text: rest.slice(start, newline), terminated: true };
      start = newline + 1;
      newline = rest.indexOf('\n', start);
    }
    rest = rest.slice(start);
  }
  rest += decoder.end();
  if (rest !== '') yield { number: ++number, text: rest, terminated: false };
}
