// Values the agent hands to the recorder are copied as JSON the moment they are recorded: the
// agent may mutate its objects afterwards, and the record must hold what was true at the time.
// The copy keeps the program's member order (docs/spec.md §7): a replay hands back what the
// program saw, and a program that prints a value or puts `JSON.stringify(result)` into its next
// prompt sees the same text. Values with no JSON form are refused (docs/spec.md §2 and §7:
// writers refuse NaN and Infinity with a clear error), naming where they are.
import { CanonicalError, canonical } from '@runback/canonical';
import { RunbackError } from '../core/errors.js';
import { rememberTexts } from './known-text.js';
import { NOT_PLAIN, plainSnapshot } from './plain-copy.js';

/**
 * A JSON deep copy of `value` (undefined stays undefined), its members in the order the program
 * gave them. Plain data (plain-copy.ts) is copied in one walk that refuses what JSON has no
 * form for; anything else is validated by computing its canonical text first (JSON.stringify
 * alone would turn NaN into null), then round-tripped through JSON. Either way the canonical and
 * stored texts are remembered for the sealer (known-text.ts).
 * `label` names it in errors.
 */
export function snapshot(value: unknown, label: string): unknown {
  if (value === undefined) return undefined;
  if (typeof value === 'object' && value !== null) {
    // Plain data is copied in one walk, which also writes the copy's canonical and stored texts.
    const plain = plainSnapshot(value);
    if (plain !== NOT_PLAIN) {
      rememberTexts(plain.copy as object, plain.canonical, plain.stored, plain.same);
      return plain.copy;
    }
  }
  let text: string;
  try {
    text = canonical(value);
  } catch (err) {
    if (err instanceof CanonicalError) {
      throw new RunbackError(
        'VALUE_NOT_JSON',
        `${label}: expected JSON data, got ${err.message}${err.pointer === '' ? '' : ` (at ${err.pointer})`}`,
        { cause: err },
      );
    }
    throw err;
  }
  if (typeof value !== 'object' || value === null) return JSON.parse(text) as unknown;
  const stored = JSON.stringify(value);
  const copy = JSON.parse(stored) as unknown;
  if (typeof copy === 'object' && copy !== null) rememberTexts(copy, text, stored);
  return copy;
}
