// Command-line flags parsed with node:util parseArgs, but with runback's own words for every
// mistake: the flag is named as the user typed it, a near miss gets a suggestion
// (`unknown option --pubky; did you mean --pubkey?`), and a missing value says which flag
// wants one. Node's raw parseArgs text (with its advice about "--") never reaches the user.
import { parseArgs } from 'node:util';

type ParseArgsConfig = NonNullable<Parameters<typeof parseArgs>[0]>;
type OptionSpec = NonNullable<ParseArgsConfig['options']>[string];

/** A command-line mistake found while parsing flags; `message` is ready for the user. */
export class FlagError extends Error {
  readonly code = 'USAGE_BAD_ARGUMENTS';
  /** The flag as typed, and the argument after it when that was taken for a flag. */
  readonly flag: string | undefined;
  readonly next: string | undefined;
  constructor(message: string, flag?: string, next?: string) {
    super(message);
    this.name = 'FlagError';
    this.flag = flag;
    this.next = next;
  }
}

/**
 * parseArgs (callers pass strict: true); throws {@link FlagError} naming the flag on an unknown option, a
 * missing value, a value given to a switch, or (without allowPositionals) an extra argument.
 */
export function parseFlags<const T extends ParseArgsConfig>(
  config: T,
): ReturnType<typeof parseArgs<T>> {
  const options: Readonly<Record<string, OptionSpec>> = config.options ?? {};
  const tokens = parseArgs({ ...config, strict: false, tokens: true }).tokens ?? [];
  for (const token of tokens) {
    if (token.kind === 'positional' && config.allowPositionals !== true) {
      throw new FlagError(`unexpected argument ${JSON.stringify(token.value)}`);
    }
    if (token.kind !== 'option') continue;
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (spec === undefined) {
      const guess = closestFlag(token.name, Object.keys(options));
      throw new FlagError(
        `unknown option ${token.rawName}${guess === undefined ? '' : `; did you mean --${guess}?`}`,
      );
    }
    if (spec.type === 'string' && token.value === undefined) {
      throw new FlagError(`expected a value after ${token.rawName}, got none`, token.rawName);
    }
    if (spec.type === 'string' && token.inlineValue === false && token.value?.startsWith('-')) {
      // Strict parseArgs refuses a separate value that starts with "-" (it may be a flag).
      throw new FlagError(
        `expected a value after ${token.rawName}, got ${JSON.stringify(token.value.slice(0, 40))}, which starts with "-" (write ${token.rawName}=VALUE for such a value)`,
        token.rawName,
        token.value,
      );
    }
    if (spec.type === 'boolean' && token.value !== undefined) {
      throw new FlagError(
        `${token.rawName} takes no value, got ${JSON.stringify(`${token.rawName}=${token.value}`)}`,
      );
    }
  }
  try {
    return parseArgs(config);
  } catch (err) {
    // Every case parseArgs rejects is caught above; this keeps a future one readable.
    throw new FlagError(err instanceof Error ? err.message : String(err));
  }
}

/** The flag nearest to a typo (edit distance ≤ 2, or a unique prefix), if any. */
export function closestFlag(name: string, candidates: readonly string[]): string | undefined {
  const prefixed = candidates.filter((c) => c.startsWith(name) && name.length >= 2);
  if (prefixed.length === 1) return prefixed[0];
  let best: { name: string; d: number } | undefined;
  for (const candidate of candidates) {
    if (candidate.length === 1) continue;
    const d = editDistance(name.toLowerCase(), candidate);
    if (d <= 2 && d < candidate.length && (best === undefined || d < best.d))
      best = { name: candidate, d };
  }
  return best?.name;
}

/** Levenshtein distance, two rows at a time. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}
