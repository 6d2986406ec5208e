// The real process's I/O for commands: files, standard input, the terminal.
import { readFile } from 'node:fs/promises';
import type { CommandIO } from './io.js';
import { openRegularFile, readBoundedInput } from './read-bounded.js';

/** Reads all of standard input. */
async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** CommandIO bound to this process. */
export function nodeIO(): CommandIO {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    readInput: async (path, options) =>
      options !== undefined
        ? readBoundedInput(path, options)
        : path === '-'
          ? readStdin()
          : readFile(path),
    streamInput: (path, options) => openRegularFile(path, options),
    isTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    env: process.env,
  };
}
