// Values the agent hands to the recorder are copied as JSON the moment they are recorded: the
// agent may mutate its objects afterwards, and the record must hold what was true at the time.
// Values with no JSON form are refused (docs/spec.md §2 and §7: writers refuse NaN and
// Infinity with a clear error), naming where they are.
import { CanonicalError, canonical } from '@runback/canonical';
import { RunbackError } from '../core/errors.js';
import { rememberText } from './known-text.js';

/**
 * A JSON deep copy of `value` (undefined stays undefined), its members in canonical order: it is
 * parsed back from its canonical text, which also validates it. `label` names it in errors.
 */
export function snapshot(value: unknown, label: string): unknown {
  if (value === undefined) return undefined;
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
  const copy = JSON.parse(text) as unknown;
  if (typeof copy === 'object' && copy !== null) rememberText(copy, text);
  return copy;
}
