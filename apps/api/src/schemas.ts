// Request and response schemas. The same schemas validate requests and generate
// GET /api/openapi.json (openapi.ts), so the documentation cannot drift from the checks.
// Event shapes follow docs/spec.md §5 ("Event base members", "Types and their members").
import { z } from 'zod';

const nonEmpty = z.string().min(1);

/** `actor {type: user|api_key|system, id, label?}` (docs/spec.md §5). */
export const ActorSchema = z.object({
  type: z.enum(['user', 'api_key', 'system']),
  id: nonEmpty,
  label: z.string().optional(),
});

/** `error` of an event: `{name, message, stack?}` or null. */
export const EventErrorSchema = z.looseObject({
  name: z.string(),
  message: z.string(),
  stack: z.string().optional(),
});

const KeyProjectionSchema = z.object({
  keep: z.array(z.string()).nullable().optional(),
  drop: z.array(z.string()).nullable().optional(),
});

/** Members every event carries. `_hash` may be sent; the service recomputes it. */
export const EventBaseSchema = z.looseObject({
  schema_version: z.literal(1),
  run_id: z.string().optional(),
  span_id: nonEmpty,
  parent_span_id: z.string().nullable(),
  seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  ts_start: nonEmpty,
  ts_end: nonEmpty,
  type: nonEmpty,
  metadata: z.record(z.string(), z.unknown()).optional(),
  actor: ActorSchema.optional(),
  _hash: z.string().optional(),
});

const optionalError = EventErrorSchema.nullable().optional();
const latency = z.number().min(0).nullable().optional();

/** Members by event type; a type not listed here is accepted with the base members only. */
export const EventTypeSchemas = {
  llm: z.looseObject({
    model: z.looseObject({ provider: z.string(), model_id: z.string() }),
    request: z.looseObject({}),
    response: z.looseObject({}).nullable().optional(),
    usage: z.looseObject({}).nullable().optional(),
    latency_ms: latency,
    error: optionalError,
    key_projection: KeyProjectionSchema.optional(),
  }),
  tool: z.looseObject({
    tool_name: z.string(),
    tool_call_id: z.string().nullable().optional(),
    input: z.unknown(),
    output: z.unknown().optional(),
    latency_ms: latency,
    error: optionalError,
    key_projection: KeyProjectionSchema.optional(),
  }),
  env: z.looseObject({
    kind: z.enum(['now', 'date', 'random', 'uuid', 'fetch', 'http', 'clock']),
    key: z.string(),
    output: z.unknown(),
  }),
  reasoning: z.looseObject({ text: z.string(), label: z.string().nullable().optional() }),
} as const;

/** One event as a client sends it (documentation form; checks run per member in events.ts). */
export const EventSchema = EventBaseSchema;

/** `POST /api/runs`. */
export const RunStartSchema = z.object({
  name: nonEmpty.max(200),
  input: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  actor: ActorSchema.optional(),
});

/** `POST /api/runs/:id/events`; the batch's idempotency key is the Idempotency-Key header. */
export const EventBatchSchema = z.object({
  events: z.array(z.unknown()).min(1).max(10_000),
});

/** `POST /api/runs/:id/finish`. */
export const RunFinishSchema = z.object({
  status: z.enum(['success', 'error']),
  output: z.unknown().optional(),
  error: EventErrorSchema.nullable().optional(),
});

/** `GET /api/runs` query. Times are ISO 8601 and compare with `started_at`. */
export const RunListQuerySchema = z.object({
  name: z.string().optional(),
  status: z.enum(['running', 'success', 'error']).optional(),
  started_after: z.string().optional(),
  started_before: z.string().optional(),
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

/** `POST /api/admin/api-keys`. */
export const ApiKeyCreateSchema = z.object({
  project: nonEmpty.max(100),
  label: z.string().max(200).optional(),
});

/** The one error shape. */
export const ErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});

/** A run as the list and start endpoints answer it. */
export const RunResourceSchema = z.object({
  run_id: z.string(),
  name: z.string(),
  status: z.enum(['running', 'success', 'error']),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  event_count: z.number().int(),
  sealed: z.boolean(),
});

export const RunListSchema = z.object({
  runs: z.array(RunResourceSchema),
  next_cursor: z.string().nullable(),
});

export const BatchResultSchema = z.object({
  run_id: z.string(),
  accepted: z.number().int(),
  first_seq: z.number().int(),
  last_seq: z.number().int(),
  event_count: z.number().int(),
  head: z.string(),
});

export const VerifyResultSchema = z.looseObject({
  verdict: z.enum(['valid', 'unverified', 'invalid']),
  integrity: z.boolean(),
  valid: z.boolean(),
  checks: z.looseObject({}),
  errors: z.array(z.looseObject({})),
  notes: z.array(z.looseObject({})),
});

export const PublishedKeySchema = z.object({
  key_id: z.string(),
  alg: z.literal('Ed25519'),
  pem: z.string(),
});

export const PublishedKeysSchema = z.object({
  current: PublishedKeySchema.nullable(),
  previous: z.array(PublishedKeySchema),
  pinned: z.array(PublishedKeySchema),
  revoked: z.array(PublishedKeySchema),
});

export const ApiKeySchema = z.object({
  id: z.string(),
  project: z.string(),
  label: z.string().nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});

export const ApiKeyCreatedSchema = ApiKeySchema.extend({ token: z.string() });

const treeSize = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const hexHash = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * `GET /api/log/proof/:run_id` query: prove against the checkpoint of tree size `size`, and
 * with `from` add the consistency proof from that older size.
 */
export const LogProofQuerySchema = z.object({
  size: treeSize.optional(),
  from: treeSize.optional(),
});

/** `GET /api/log/consistency` query. */
export const LogConsistencyQuerySchema = z.object({
  from: treeSize,
  to: treeSize.optional(),
});

/** A record head: what one log leaf commits to. */
export const RecordHeadSchema = z.object({
  run_id: z.string(),
  content_digest: hexHash,
  cassette_digest: hexHash,
});

/** `runback.tlog-inclusion/v1`, the document `runback verify --proof` reads. */
export const InclusionProofSchema = z.object({
  $schema: z.literal('runback.tlog-inclusion/v1'),
  head: RecordHeadSchema,
  leaf_index: z.number().int(),
  tree_size: z.number().int(),
  proof: z.array(hexHash),
  checkpoint: z.string().describe('The signed checkpoint (C2SP signed note)'),
});

/** `runback.tlog-consistency/v1`, the document `runback log verify --proof` reads. */
export const ConsistencyProofSchema = z.object({
  $schema: z.literal('runback.tlog-consistency/v1'),
  old_checkpoint: z.string(),
  new_checkpoint: z.string(),
  proof: z.array(hexHash),
});

/** The proof endpoint's answer: with `?from=`, the consistency proof rides along. */
export const InclusionProofAnswerSchema = InclusionProofSchema.extend({
  consistency: ConsistencyProofSchema.optional().describe(
    "With ?from=SIZE: the consistency proof from the checkpoint of SIZE to this proof's checkpoint",
  ),
});

/** `GET /api/log/checkpoint` with `Accept: application/json`. */
export const CheckpointSchema = z.object({
  origin: z.string(),
  size: z.number().int(),
  root: hexHash,
  checkpoint: z.string(),
  key_id: z.string(),
});
