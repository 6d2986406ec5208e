// Redaction runs on every event before it is hashed or written (issue 3, item 6; docs/spec.md
// §7), so a redacted record still verifies, and the secret never reaches the journal or the
// record. It copies on write: the agent's own objects are never modified.
import { escapePointerToken } from '@runback/canonical';
import { argError } from '../core/errors.js';
import {
  REDACTED,
  SECRET_NAME_ENDINGS,
  SECRET_QUERY_PARAMETER,
  SECRET_VALUE_PATTERNS,
  normaliseName,
} from './rules.js';

/** How redaction is configured (`redact` option of a run). */
export interface RedactionOptions {
  /** false turns redaction off entirely. Default true. */
  readonly enabled?: boolean;
  /** More member names whose values are secret (matched like the built-in ones). */
  readonly keys?: readonly string[];
  /** More value patterns, replaced wherever they match inside a string. */
  readonly patterns?: readonly RegExp[];
  /** Member names never redacted by name (their values are still scanned for patterns). */
  readonly allowKeys?: readonly string[];
}

/** The redacted value and the JSON Pointers (relative to it) of every replaced value. */
export interface Redaction<T> {
  readonly value: T;
  readonly sites: readonly string[];
}

/** Applies one redaction policy to JSON values. */
export class Redactor {
  readonly #enabled: boolean;
  readonly #nameEndings: readonly string[];
  readonly #allow: ReadonlySet<string>;
  /** The built-in patterns as one alternation, then each custom pattern with its own flags. */
  readonly #patterns: readonly RegExp[];
  /** Names seen before and whether they are secret: agents reuse a small set of names. */
  readonly #nameCache = new Map<string, boolean>();

  constructor(options: RedactionOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw argError('redact', 'an options object', options);
    }
    if (options.enabled !== undefined && typeof options.enabled !== 'boolean') {
      throw argError('redact.enabled', 'a boolean', options.enabled);
    }
    this.#enabled = options.enabled ?? true;
    const keys = listOption('redact.keys', options.keys);
    const allowKeys = listOption('redact.allowKeys', options.allowKeys);
    const patterns = listOption('redact.patterns', options.patterns);
    for (const [name, list] of [
      ['redact.keys', keys],
      ['redact.allowKeys', allowKeys],
    ] as const) {
      for (const key of list) {
        if (typeof key !== 'string' || key === '') throw argError(name, 'names', key);
      }
    }
    for (const pattern of patterns) {
      if (!(pattern instanceof RegExp)) throw argError('redact.patterns', 'RegExps', pattern);
    }
    this.#nameEndings = [...SECRET_NAME_ENDINGS, ...(keys as string[]).map(normaliseName)];
    this.#allow = new Set((allowKeys as string[]).map(normaliseName));
    // One alternation for the built-in patterns: each string is scanned once for them. A
    // custom pattern keeps its own flags (`i`, `s`, `u`...) and group numbers, so it is
    // compiled on its own; `g` replaces every match and `y` would anchor it, so `y` is dropped.
    const builtIn = SECRET_VALUE_PATTERNS.map((p) => `(?:${p.source})`).join('|');
    this.#patterns = [
      new RegExp(builtIn, 'g'),
      ...(patterns as RegExp[]).map(
        (p) => new RegExp(p.source, `${p.flags.replace(/[gy]/g, '')}g`),
      ),
    ];
  }

  /** Whether a member of this name has its whole value redacted. */
  isSecretName(name: string): boolean {
    let secret = this.#nameCache.get(name);
    if (secret === undefined) {
      const normal = normaliseName(name);
      secret = !this.#allow.has(normal) && this.#nameEndings.some((e) => normal.endsWith(e));
      if (this.#nameCache.size < 10_000) this.#nameCache.set(name, secret);
    }
    return secret;
  }

  /** Replaces secret-looking values in `value`; `base` prefixes the reported pointers. */
  redact<T>(value: T, base = ''): Redaction<T> {
    if (!this.#enabled) return { value, sites: [] };
    const sites: string[] = [];
    const out = this.#walk(value, { base, path: [], sites }) as T;
    return { value: out, sites };
  }

  /** Replaces credential formats inside one string; returns it unchanged when none match. */
  redactString(text: string): string {
    if (!this.#enabled) return text;
    // The shortest thing a built-in rule matches (`&sig=x`) is 6 characters: most strings in an
    // event (ids, roles, names, finish reasons) are shorter and need no scan.
    if (text.length < 6 && this.#patterns.length === 1) return text;
    let out = text;
    for (const pattern of this.#patterns) out = out.replace(pattern, REDACTED);
    return out.includes('=') ? out.replace(SECRET_QUERY_PARAMETER, `$1${REDACTED}`) : out;
  }

  // The JSON Pointer of a value is only built when something there is redacted: walking a
  // clean event allocates nothing.
  #walk(value: unknown, walk: Walk): unknown {
    if (typeof value === 'string') {
      const replaced = this.redactString(value);
      if (replaced !== value) walk.sites.push(pointerOf(walk));
      return replaced;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        walk.path.push(i);
        const next = this.#walk(item, walk);
        walk.path.pop();
        if (next !== item) (copy ??= value.slice())[i] = next;
      }
      return copy ?? value;
    }
    let copy: Record<string, unknown> | undefined;
    const source = value as Record<string, unknown>;
    for (const name of Object.keys(source)) {
      const item = source[name];
      walk.path.push(name);
      let next: unknown;
      if (
        item !== null &&
        item !== undefined &&
        typeof item !== 'boolean' &&
        this.isSecretName(name)
      ) {
        next = REDACTED;
        if (item !== REDACTED) walk.sites.push(pointerOf(walk));
      } else {
        next = this.#walk(item, walk);
      }
      walk.path.pop();
      if (next !== item) {
        // A null-prototype copy keeps an own `__proto__` member as data (docs/spec.md §3).
        copy ??= Object.assign(Object.create(null) as Record<string, unknown>, source);
        copy[name] = next;
      }
    }
    return copy ?? value;
  }
}

/** An optional list option: its elements, or a labelled TypeError when it is not an array. */
function listOption(name: string, value: readonly unknown[] | undefined): readonly unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw argError(name, 'an array', value);
  return value;
}

interface Walk {
  readonly base: string;
  readonly path: (string | number)[];
  readonly sites: string[];
}

function pointerOf(walk: Walk): string {
  let pointer = walk.base;
  for (const segment of walk.path) {
    pointer += `/${typeof segment === 'number' ? segment : escapePointerToken(segment)}`;
  }
  return pointer;
}
