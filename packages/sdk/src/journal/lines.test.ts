import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { readLines, type JournalLine } from './lines.js';
import { journalEventTexts } from './read.js';

async function linesOf(content: string | Buffer): Promise<JournalLine[]> {
  const path = join(tempDir(), 'lines');
  writeFileSync(path, content);
  const lines: JournalLine[] = [];
  for await (const line of readLines(path)) lines.push(line);
  return lines;
}

describe('readLines', () => {
  it('numbers newline-terminated lines from 1', async () => {
    expect(await linesOf('a\n\nc\n')).toEqual([
      { number: 1, text: 'a', terminated: true },
      { number: 2, text: '', terminated: true },
      { number: 3, text: 'c', terminated: true },
    ]);
  });

  it('marks a final line without a newline as not terminated', async () => {
    expect(await linesOf('a\n{"torn":')).toEqual([
      { number: 1, text: 'a', terminated: true },
      { number: 2, text: '{"torn":', terminated: false },
    ]);
    expect(await linesOf('')).toEqual([]);
  });

  it('decodes a character split across read chunks (1 MiB) whole', async () => {
    const filler = 'x'.repeat((1 << 20) - 1);
    const lines = await linesOf(`${filler}€tail\nnext\n`);
    expect(lines.map((l) => [l.number, l.text.length, l.terminated])).toEqual([
      [1, filler.length + 5, true],
      [2, 4, true],
    ]);
    expect(lines[0]?.text.endsWith('€tail')).toBe(true);
  });
});

describe('journalEventTexts', () => {
  it('yields the complete lines after the header', async () => {
    const path = join(tempDir(), 'j');
    writeFileSync(path, 'header\ne1\ne2\ntorn');
    const texts: string[] = [];
    for await (const text of journalEventTexts(path)) texts.push(text);
    expect(texts).toEqual(['e1', 'e2']);
  });
});
