// Verifying one regular file (docs/spec.md §8): read as a stream through verifyStream, which
// holds one event at a time, so a record larger than memory or than an engine's longest string
// still verifies, with peak memory set by its largest event rather than its size.
//
// The result is the one verifyJson gives on the same bytes, line for line, so `runback verify
// --json`, the HTTP API and the web page print the same thing for the same file. Two cases
// where a stream cannot say exactly what verifyJson says are settled by reading again:
//   - a reading error (malformed JSON, invalid UTF-8, a duplicate member…): the stream names
//     the same code but words a syntax error's position differently; a file that fits under
//     the input cap is read whole and verified by verifyJson, for its exact message;
//   - CASSETTE_OUT_OF_ORDER: events further out of seq order than the stream's reorder budget;
//     the file is streamed again with no budget (holding as many oracle entries as it takes),
//     which gives verifyJson's verdict.
import { verifyJson, verifyStream, type VerifyOptions, type VerifyResult } from '@runback/verify';
import type { CommandIO } from './io.js';
import { DEFAULT_MAX_INPUT_BYTES } from './read-bounded.js';

/** Whether the result failed on how the bytes read, not on what the record says. */
function readingFailed(result: VerifyResult): boolean {
  return result.errors.some((e) => e.code.startsWith('JSON_') || e.code === 'VERIFY_UNREADABLE');
}

/**
 * Verifies the regular file at `path` as a stream. With `maxBytes`, a longer file is refused
 * (InputError INPUT_TOO_LARGE); without, a file of any size is verified. `reorderBudget` is the
 * first pass's (verifyStream's default when absent; tests pass a small one).
 *
 * @throws {InputError} for a file that is not regular or is over the cap; the file system's
 *   error for one that cannot be opened or read.
 */
export async function verifyFile(
  path: string,
  options: VerifyOptions,
  io: Required<Pick<CommandIO, 'streamInput'>> & Pick<CommandIO, 'readInput'>,
  {
    maxBytes,
    reorderBudget,
  }: { readonly maxBytes?: number | undefined; readonly reorderBudget?: number | undefined },
): Promise<VerifyResult> {
  const stream = async (budget: number | undefined) => {
    const input = await io.streamInput(path, { maxBytes });
    const result = await verifyStream(
      input.chunks,
      budget === undefined ? options : { ...options, reorderBudget: budget },
    );
    const failure = input.failure();
    if (failure !== undefined) throw failure;
    return { result, size: input.size };
  };
  const first = await stream(reorderBudget);
  const cap = maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  if (readingFailed(first.result) && first.size <= cap) {
    return verifyJson(await io.readInput(path, { maxBytes: cap }), options);
  }
  if (first.result.errors.some((e) => e.code === 'CASSETTE_OUT_OF_ORDER')) {
    return (await stream(Infinity)).result;
  }
  return first.result;
}
