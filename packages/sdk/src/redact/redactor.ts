// Redaction runs on every event before it is hashed or written (issue 3, item 6; docs/spec.md
// §7), so a redacted record still verifies, and the secret never reaches the journal or the
// record. It copies on write: the agent's own objects are never modified.
import { escapePointerToken } from '@runback/canonical';
import { argError } from '../core/errors.js';
import { looksLikeJsonDocument, redactJsonDocument } from './json-text.js';
import {
  ARGV_FLAG,
  AWS_KEY_ID,
  AWS_KEY_ID_REACH,
  CONTEXT_RULES,
  NAMED_VALUES,
  REDACTED,
  SECRET_NAME_ENDINGS,
  SECRET_NAME_STEM,
  SECRET_QUERY_PARAMETER,
  SECRET_VALUE_PATTERNS,
  isSwitchName,
  normaliseName,
  type TextRule,
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
  /** Whether custom secret names exist (SECRET_NAME_STEM covers only the built-in ones). */
  readonly #customNames: boolean;
  /** The built-in patterns as one alternation, then each custom pattern with its own flags. */
  readonly #patterns: readonly RegExp[];
  /** Names seen before and whether they are secret: agents reuse a small set of names. */
  readonly #nameCache = new Map<string, boolean>();
  /**
   * Strings scanned before and what they became. An agent sends the same system prompt, tool
   * definitions and conversation so far with every model call, and ids, roles and timestamps
   * repeat across events: each distinct text is scanned once, not once per event. The text
   * rules are pure functions of the string (and of this policy), so a hit is exact.
   */
  readonly #textCache = new Map<string, string>();
  /** Characters held by #textCache; past TEXT_CACHE_CHARS it starts afresh. */
  #textCacheChars = 0;

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
    this.#customNames = keys.length > 0;
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

  /** Whether a program argument is a flag whose next argument is a secret (`--token`). */
  #isSecretFlag(argument: string): boolean {
    if (!argument.startsWith('--')) return false;
    const flag = ARGV_FLAG.exec(argument);
    return (
      flag !== null && !isSwitchName(flag[1] as string) && this.isSecretName(flag[1] as string)
    );
  }

  /** Replaces secret-looking values in `value`; `base` prefixes the reported pointers. */
  redact<T>(value: T, base = ''): Redaction<T> {
    if (!this.#enabled) return { value, sites: [] };
    const sites: string[] = [];
    const out = this.#walk(value, { base, path: [], sites }) as T;
    return { value: out, sites };
  }

  /**
   * Replaces secrets inside one string (docs/guides/recording.md, "Redaction", every text rule
   * in rules.ts); returns it unchanged when none match.
   */
  redactString(text: string): string {
    if (!this.#enabled) return text;
    // The shortest thing a built-in rule matches (`&sig=x`, `t=x`) is 3 characters: ids,
    // roles and such short strings need no scan.
    if (text.length < 3 && this.#patterns.length === 1) return text;
    // The rules that judge names inside text only run where their cheap pre-checks pass and a
    // secret name can be.
    const names =
      (looksLikeJsonDocument(text) || NAMED_VALUES.some((rule) => scans(rule, text))) &&
      (this.#customNames || SECRET_NAME_STEM.test(text));
    const document = names ? redactJsonDocument(text, this.#isSecret) : undefined;
    let out = document ?? text;
    for (const rule of CONTEXT_RULES)
      if (scans(rule, out)) out = out.replace(rule.pattern, awsSecretBesideKeyId);
    for (const pattern of this.#patterns) out = out.replace(pattern, REDACTED);
    for (const rule of names ? NAMED_VALUES : []) {
      // A JSON document's members were judged by name already, by structure.
      if (document !== undefined && rule.id === 'quoted-secret-member') continue;
      if (scans(rule, out)) out = out.replace(rule.pattern, this.#namedValue);
    }
    return out.includes('=') ? out.replace(SECRET_QUERY_PARAMETER, `$1${REDACTED}`) : out;
  }

  readonly #isSecret = (name: string): boolean => this.isSecretName(name);

  /** redactString, answering at once for text no built-in rule can match, else through #textCache. */
  #redactCached(text: string): string {
    if (this.#patterns.length === 1 && !MAY_MATCH.test(text) && !looksLikeJsonDocument(text)) {
      return text;
    }
    if (text.length < 3 || text.length > TEXT_CACHE_MAX_LENGTH) return this.redactString(text);
    let out = this.#textCache.get(text);
    if (out === undefined) {
      out = this.redactString(text);
      if (this.#textCacheChars + text.length > TEXT_CACHE_CHARS) {
        this.#textCache.clear();
        this.#textCacheChars = 0;
      }
      this.#textCache.set(text, out);
      this.#textCacheChars += text.length;
    }
    return out;
  }

  /** Replacer of the named-value rules: the value goes when the name is secret. */
  readonly #namedValue = (match: string, name: string, _between: string, value: string): string => {
    if (isSwitchName(name) || !this.isSecretName(name)) return match;
    if (value === 'null' || value === 'true' || value === 'false') return match;
    // Quoted where the value was, or where the name was (JSON-like text stays JSON-like).
    const replacement = value.startsWith('"') || match.startsWith('"') ? `"${REDACTED}"` : REDACTED;
    // Every named-value pattern ends with its value: the name and what follows it are kept.
    return value === replacement
      ? match
      : match.slice(0, match.length - value.length) + replacement;
  };

  // The JSON Pointer of a value is only built when something there is redacted: walking a
  // clean event allocates nothing.
  #walk(value: unknown, walk: Walk): unknown {
    if (typeof value === 'string') {
      const replaced = this.#redactCached(value);
      if (replaced !== value) walk.sites.push(pointerOf(walk));
      return replaced;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      // Rule argv-secret-flag: in a list of program arguments, the one after `--password`.
      let flagged = false;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        walk.path.push(i);
        let next: unknown;
        if (flagged && typeof item === 'string' && !item.startsWith('-') && item !== REDACTED) {
          next = REDACTED;
          walk.sites.push(pointerOf(walk));
        } else {
          next = this.#walk(item, walk);
        }
        walk.path.pop();
        flagged = typeof item === 'string' && this.#isSecretFlag(item);
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

/**
 * Text in which no built-in text rule can match: every credential format (CREDENTIAL_FORMATS)
 * starts with one of these literals, the AWS secret key rule needs an access key id beside it,
 * the named-value rules and the query-parameter rule need `=`, `"` or `--`, and a JSON
 * document is told apart by its brackets (looksLikeJsonDocument). A superset test: a string it
 * passes still goes through every rule. Custom patterns may match anything, so it is not used
 * with them.
 */
const MAY_MATCH = /sk-|AKIA|ASIA|Bearer|eyJ|-----BEGIN|gh[pousr]_|github_pat_|xox|AIza|[="]|--/;

/**
 * Longer strings are scanned every time: the engine hashes only this long a key in full. (Only
 * strings MAY_MATCH lets through are looked up: a lookup costs less than their scan.)
 */
const TEXT_CACHE_MAX_LENGTH = 16 * 1024;
/** The characters the string cache of one redactor holds at most (about 2 MB). */
const TEXT_CACHE_CHARS = 1 << 20;

/** Whether a text rule's pre-check lets it scan `text`. */
function scans(rule: TextRule, text: string): boolean {
  return rule.needs === undefined || rule.needs.some((needle) => text.includes(needle));
}

/**
 * Replacer of rule aws-secret-access-key: a 40-character candidate goes when an access key id
 * stands within reach and it looks random (mixed case, not hexadecimal like a git revision).
 */
function awsSecretBesideKeyId(candidate: string, offset: number, whole: string): string {
  if (!/[a-z]/.test(candidate) || !/[A-Z]/.test(candidate)) return candidate;
  const around = whole.slice(
    Math.max(0, offset - AWS_KEY_ID_REACH),
    offset + candidate.length + AWS_KEY_ID_REACH,
  );
  return AWS_KEY_ID.test(around) ? REDACTED : candidate;
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
