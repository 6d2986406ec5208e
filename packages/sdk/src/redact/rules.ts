// What counts as a secret (docs/guides/recording.md, "Redaction"). Two kinds of rule: a member
// whose *name* looks secret has its whole value replaced; a *value* that looks like a known
// credential format is replaced wherever it appears inside a string, so a key pasted into a
// prompt is caught too.

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

/**
 * Credential formats found inside strings. Each is anchored on a distinctive prefix so that
 * ordinary prose is left alone.
 */
export const SECRET_VALUE_PATTERNS: readonly RegExp[] = [
  // OpenAI and Anthropic API keys (sk-…, sk-proj-…, sk-ant-api03-…).
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  // AWS access key ids (long-lived AKIA…, temporary ASIA…).
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  // HTTP bearer credentials, the scheme included.
  /\bBearer\s+[A-Za-z0-9._~+/-]{8,}=*/g,
  // JSON Web Tokens: base64url header and payload (both JSON objects, so "eyJ"), signature.
  /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
  // PEM private keys of any algorithm, armour lines included.
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/g,
  // GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained PATs.
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}\b/g,
  // Slack tokens.
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  // Google API keys.
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
];

/** Normalises a member name for matching: lowercase, without `-` and `_`. */
export function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/**
 * A URL query parameter whose name looks secret (`?api_key=…`, `&access_token=…`, `&sig=…`):
 * its value is replaced and the name kept, so a recorded URL still reads as what it was.
 */
export const SECRET_QUERY_PARAMETER =
  /([?&;](?:[A-Za-z0-9_.-]*(?:api[_-]?key|apikey|token|secret|password|passwd|signature|access[_-]?key|auth)|sig|key|code)=)(?!\[REDACTED\])[^&#\s"'<>]+/gi;
