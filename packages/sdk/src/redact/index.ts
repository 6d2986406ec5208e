export { Redactor, type Redaction, type RedactionOptions } from './redactor.js';
export { REDACTED, SECRET_NAME_ENDINGS, SECRET_VALUE_PATTERNS } from './rules.js';
