// Attribute names. The gen_ai.* names come from @opentelemetry/semantic-conventions (the
// incubating GenAI conventions, pinned to one version); runback.* names carry what the GenAI
// conventions have no name for: the record's identity, digests, verdict and exact events.
export {
  ATTR_GEN_AI_AGENT_ID,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_FREQUENCY_PENALTY,
  ATTR_GEN_AI_REQUEST_MAX_TOKENS,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_REQUEST_PRESENCE_PENALTY,
  ATTR_GEN_AI_REQUEST_SEED,
  ATTR_GEN_AI_REQUEST_STOP_SEQUENCES,
  ATTR_GEN_AI_REQUEST_TEMPERATURE,
  ATTR_GEN_AI_REQUEST_TOP_K,
  ATTR_GEN_AI_REQUEST_TOP_P,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_SYSTEM,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DEFINITIONS,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_COMPLETION_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_PROMPT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating';
export { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** The record's run id (root span). */
export const ATTR_RUNBACK_RUN_ID = 'runback.run_id';
/** The run's final status: running, success or error (root span). */
export const ATTR_RUNBACK_RUN_STATUS = 'runback.run.status';
/** The record's `$schema` (root span). */
export const ATTR_RUNBACK_SCHEMA = 'runback.schema';
/** `manifest.content_digest` (root span; docs/spec.md §3). */
export const ATTR_RUNBACK_CONTENT_DIGEST = 'runback.content_digest';
/** `manifest.replay.cassette_digest` (root span; docs/spec.md §4.3). */
export const ATTR_RUNBACK_CASSETTE_DIGEST = 'runback.cassette_digest';
/** `manifest.event_count` (root span). */
export const ATTR_RUNBACK_EVENT_COUNT = 'runback.event_count';
/** The verify verdict: valid, unverified or invalid (root span; docs/spec.md §5.7). */
export const ATTR_RUNBACK_VERDICT = 'runback.verify.verdict';
/** Whether the five integrity checks passed (root span). */
export const ATTR_RUNBACK_INTEGRITY = 'runback.verify.integrity';
/** The signature outcome: valid, valid-unpinned, unsigned, … (root span; docs/spec.md §5.6). */
export const ATTR_RUNBACK_SIGNATURE = 'runback.verify.signature';
/** The codes of every verification error, in order (root span). */
export const ATTR_RUNBACK_ERRORS = 'runback.verify.errors';
/** The signer's algorithm and key id, when signed (root span). */
export const ATTR_RUNBACK_SIGNER_ALG = 'runback.signer.alg';
export const ATTR_RUNBACK_SIGNER_KEY_ID = 'runback.signer.key_id';
/** The record's `run` summary as canonical JSON (root span). */
export const ATTR_RUNBACK_RUN = 'runback.run';
/** The event a span or span event stands for, as canonical JSON without `_hash`. */
export const ATTR_RUNBACK_EVENT = 'runback.event';
/** The event's index in the record's `events` array (the order the chain commits to). */
export const ATTR_RUNBACK_EVENT_INDEX = 'runback.event_index';
/** The event's `seq`, `span_id` and `parent_span_id` as the record has them. */
export const ATTR_RUNBACK_SEQ = 'runback.seq';
export const ATTR_RUNBACK_SPAN_ID = 'runback.span_id';
export const ATTR_RUNBACK_PARENT_SPAN_ID = 'runback.parent_span_id';

/** The instrumentation scope of exported spans. */
export const SCOPE_NAME = '@runback/otlp';
/** The span-event name prefix of an event that is not a span (run, reasoning, env, …). */
export const EVENT_NAME_PREFIX = 'runback.';
