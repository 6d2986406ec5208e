// What counts as a secret (docs/guides/recording.md, "Redaction"), as data. The redactor
// (redactor.ts) interprets these tables; each rule has an id that its tests and the guide use.
//
// Kinds of rule:
// - a member whose *name* looks secret has its whole value replaced (SECRET_NAME_ENDINGS);
// - a *credential format* is replaced wherever it appears inside a string (`match` rules);
// - a *named value inside text* (`password=…`, `"client_secret": "…"`, `--token …`) has its
//   value replaced when its name looks secret by the member-name rule (`named-value` rules);
// - an AWS secret access key is replaced where an access key id stands beside it
//   (`beside-aws-key-id`);
// - a string that is a JSON document is parsed and redacted by member name inside it, and a
//   list of program arguments has the value after a secret flag replaced (both in redactor.ts,
//   ids `json-text-member` and `argv-secret-flag`).

/** The text that replaces a secret. */
export const REDACTED = '[REDACTED]';

/**
 * Member names (lowercased, `-` and `_` removed) that always hold secrets, and endings that do:
 * `github_token` and `OPENAI_API_KEY` match, `max_tokens` and `total_tokens` do not (they end
 * in "tokens").
 */
export const SECRET_NAME_ENDINGS: readonly string[] = [
  'apikey',
  'authorization',
  'password',
  'passwd',
  'passphrase',
  'secret',
  'secretkey',
  'token',
  'privatekey',
  'accesskey',
  'credential',
  'credentials',
  'cookie',
  'sessionid',
];

/** How a text rule's matches are replaced. */
export type TextRuleAction =
  /** The whole match is a credential. */
  | 'match'
  /** Group 1 is a name, group 2 the text up to the value (kept), group 3 the value: replaced
   * when the name is secret by the member-name rule. */
  | 'named-value'
  /** The match is a 40-character AWS secret access key candidate: replaced when an AWS access
   * key id stands within AWS_KEY_ID_REACH characters of it. */
  | 'beside-aws-key-id';

/** One rule applied to the text of every string. */
export interface TextRule {
  readonly id: string;
  readonly action: TextRuleAction;
  /** Global. */
  readonly pattern: RegExp;
  /** When set, only strings that contain one of these are scanned (a cheap pre-check). */
  readonly needs?: readonly string[];
}

/**
 * Credential formats found inside strings. Each is anchored on a distinctive prefix so that
 * ordinary prose is left alone.
 */
export const CREDENTIAL_FORMATS: readonly TextRule[] = [
  // OpenAI and Anthropic API keys (sk-…, sk-proj-…, sk-ant-api03-…).
  { id: 'openai-anthropic-key', action: 'match', pattern: /\bsk-[A-Za-z0-9_-]{16,}/g },
  // AWS access key ids (long-lived AKIA…, temporary ASIA…).
  { id: 'aws-access-key-id', action: 'match', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  // HTTP bearer credentials, the scheme included.
  { id: 'bearer-credential', action: 'match', pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{8,}=*/g },
  // JSON Web Tokens: base64url header and payload (both JSON objects, so "eyJ"), signature.
  {
    id: 'jwt',
    action: 'match',
    pattern: /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
  },
  // PEM private keys of any algorithm, armour lines included; a block cut short (text kept up
  // to a limit) is replaced to the end of the text.
  {
    id: 'pem-private-key',
    action: 'match',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|[\s\S]*$)/g,
  },
  // GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained PATs.
  { id: 'github-token', action: 'match', pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g },
  { id: 'github-pat', action: 'match', pattern: /\bgithub_pat_[A-Za-z0-9_]{30,}\b/g },
  // Slack tokens.
  { id: 'slack-token', action: 'match', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  // Google API keys.
  { id: 'google-api-key', action: 'match', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
];

/** How far (in characters, either side) an AWS access key id vouches for a secret key. */
export const AWS_KEY_ID_REACH = 256;

/** An AWS access key id, unanchored, to look for around a secret key candidate. */
export const AWS_KEY_ID = /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/;

/**
 * Rules that need context: they run before the credential formats, on the text as written (an
 * AWS secret key is recognised by the access key id beside it, which a format rule replaces).
 */
export const CONTEXT_RULES: readonly TextRule[] = [
  // An AWS secret access key: 40 characters of base64 (A–Z, a–z, 0–9, `/`, `+`), standing
  // alone, within reach of an access key id. Under a name (`aws_secret_access_key = …`,
  // `"SecretAccessKey": …`) the named-value and member-name rules catch it without an id.
  {
    id: 'aws-secret-access-key',
    action: 'beside-aws-key-id',
    pattern: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    needs: ['AKIA', 'ASIA'],
  },
];

/**
 * Names with values inside text: the value is replaced when the name is secret by the same test
 * as member names (so custom `keys` and `allowKeys` apply here too), and the name is kept.
 */
export const NAMED_VALUES: readonly TextRule[] = [
  // `password=…`, `token=…` in a form body, a query string, a log line or an env dump, with or
  // without spaces around `=` (`aws_secret_access_key = …` in a credentials file).
  {
    id: 'secret-assignment',
    action: 'named-value',
    pattern: /(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]*)([ \t]*=[ \t]*)([^\s&;,"'<>]+)/g,
    needs: ['='],
  },
  // A quoted member in JSON-like text that is not a whole JSON document (a log line, a body
  // cut short): `"client_secret": "…"`, `"password":123`.
  {
    id: 'quoted-secret-member',
    action: 'named-value',
    pattern: /"([^"\\\n]{1,128})"(\s*:\s*)("(?:[^"\\\n]|\\.)*"|[-+.\w]+)/g,
    needs: ['"'],
  },
  // A secret command-line flag and its value inside text: `--password hunter2`,
  // `--token=abc` (a logged command line, a shell command in a tool input).
  {
    id: 'secret-flag-in-text',
    action: 'named-value',
    pattern: /(?<![\w-])--([A-Za-z][\w-]*)(=|[ \t]+)([^\s"'&;|<>-][^\s"'&;|<>]*)/g,
    needs: ['--'],
  },
];

/**
 * A URL query parameter whose name looks secret (`?api_key=…`, `&access_token=…`, `&sig=…`):
 * its value is replaced and the name kept, so a recorded URL still reads as what it was. It
 * also covers short names (`sig`, `key`, `code`) that are secret only in a query string.
 */
export const SECRET_QUERY_PARAMETER =
  /([?&;](?:[A-Za-z0-9_.-]*(?:api[_-]?key|apikey|token|secret|password|passwd|signature|access[_-]?key|auth)|sig|key|code)=)(?!\[REDACTED\])[^&#\s"'<>]+/gi;

/** A command-line flag (`--password`) whose next argument is its value. */
export const ARGV_FLAG = /^--([A-Za-z][\w-]*)$/;

/** The credential-format patterns, for callers that scan text themselves. */
export const SECRET_VALUE_PATTERNS: readonly RegExp[] = CREDENTIAL_FORMATS.map((r) => r.pattern);

/**
 * A part of every built-in secret name ending, as it appears in text with or without `-` and
 * `_`: text without any of these holds no built-in secret name, so the rules that judge names
 * inside text can skip it.
 */
export const SECRET_NAME_STEM = /key|auth|pass|token|secret|cookie|credential|session/i;

/** Normalises a member name for matching: lowercase, without `-` and `_`. */
export function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/**
 * Whether a flag name says its value is secret: `--no-password` and friends are switches, so a
 * name that starts with `no-` never is.
 */
export function isSwitchName(name: string): boolean {
  return /^no[-_]/i.test(name);
}

/** Every rule's id: the tables above, and the rules the redactor applies by structure. */
export const RULE_IDS: readonly string[] = [
  'secret-member-name',
  ...CREDENTIAL_FORMATS.map((r) => r.id),
  ...CONTEXT_RULES.map((r) => r.id),
  ...NAMED_VALUES.map((r) => r.id),
  'secret-query-parameter',
  'json-text-member',
  'argv-secret-flag',
];
