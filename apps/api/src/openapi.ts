// GET /api/openapi.json, generated from the same zod schemas that validate requests.
import { z } from 'zod';
import {
  ApiKeyCreateSchema,
  ApiKeyCreatedSchema,
  ApiKeySchema,
  BatchResultSchema,
  CheckpointSchema,
  ConsistencyProofSchema,
  ErrorSchema,
  EventBatchSchema,
  EventSchema,
  InclusionProofAnswerSchema,
  LogConsistencyQuerySchema,
  LogProofQuerySchema,
  PublishedKeysSchema,
  RunFinishSchema,
  RunListQuerySchema,
  RunListSchema,
  RunResourceSchema,
  RunStartSchema,
  VerifyResultSchema,
} from './schemas.js';

type Json = Record<string, unknown>;

function schema(s: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const out = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Json;
  delete out['$schema'];
  return out;
}

function jsonBody(s: z.ZodType): Json {
  return { required: true, content: { 'application/json': { schema: schema(s, 'input') } } };
}

function ok(description: string, s: z.ZodType, type = 'application/json'): Json {
  return { description, content: { [type]: { schema: schema(s) } } };
}

const errorResponse = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const runId = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const bearer = [{ apiKey: [] }];

function queryParameters(s: z.ZodObject): Json[] {
  const json = schema(s, 'input') as { properties?: Record<string, Json> };
  return Object.entries(json.properties ?? {}).map(([name, p]) => ({
    name,
    in: 'query',
    required: false,
    schema: p,
  }));
}

/** The OpenAPI 3.1 document of the API. */
export function openApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'runback audit service',
      version: '0.1.0',
      description:
        'Ingest agent runs, seal and sign them server-side, export them as runback.audit/v2 records, and verify any record against the published keys. Errors are {error:{code,message}}.',
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key, rbk_<id>_<secret>' },
        admin: { type: 'http', scheme: 'bearer', description: 'RUNBACK_ADMIN_TOKEN' },
      },
      schemas: { Error: schema(ErrorSchema), Event: schema(EventSchema, 'input') },
    },
    paths: {
      '/api/audit/verify': {
        post: {
          summary:
            'Verify a record (at most 8 MiB) against the service keys; the answer is `runback verify --json` output',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          responses: {
            '200': ok('The verify result', VerifyResultSchema),
            '413': errorResponse('Body over 8 MiB'),
          },
        },
      },
      '/.well-known/runback-audit-key.pem': {
        get: {
          summary: 'The current Ed25519 public key (SPKI PEM)',
          responses: {
            '200': {
              description: 'PEM',
              content: { 'application/x-pem-file': { schema: { type: 'string' } } },
            },
            '404': errorResponse('No Ed25519 key'),
          },
        },
      },
      '/.well-known/runback-audit-keys.json': {
        get: {
          summary: 'Current, previous, pinned and revoked keys with key ids',
          responses: { '200': ok('Keys', PublishedKeysSchema) },
        },
      },
      '/api/runs': {
        post: {
          summary: 'Start a run (writes the run-start event)',
          security: bearer,
          requestBody: jsonBody(RunStartSchema),
          responses: {
            '201': ok('The run', RunResourceSchema),
            '400': errorResponse('Bad body'),
            '401': errorResponse('No or wrong key'),
          },
        },
        get: {
          summary: 'List runs, newest first, with cursor pagination',
          security: bearer,
          parameters: queryParameters(RunListQuerySchema),
          responses: {
            '200': ok('A page of runs', RunListSchema),
            '401': errorResponse('No or wrong key'),
          },
        },
      },
      '/api/runs/{id}/events': {
        post: {
          summary:
            'Append a batch of events; Idempotency-Key header required, a retry gets the first answer',
          security: bearer,
          parameters: [
            runId,
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: true,
              schema: { type: 'string', maxLength: 200 },
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  ...schema(EventBatchSchema, 'input'),
                  properties: {
                    events: {
                      type: 'array',
                      minItems: 1,
                      maxItems: 10000,
                      items: { $ref: '#/components/schemas/Event' },
                    },
                  },
                },
              },
            },
          },
          responses: {
            '201': ok('Appended', BatchResultSchema),
            '200': ok('A retried batch: the first answer', BatchResultSchema),
            '400': errorResponse('Bad event (names index and member)'),
            '404': errorResponse('No such run in this project'),
            '409': errorResponse('Run sealed, or seq already used'),
            '413': errorResponse('Body over 8 MiB'),
            '422': errorResponse('Idempotency key reused for another batch'),
          },
        },
      },
      '/api/runs/{id}/finish': {
        post: {
          summary: 'Finish a run: write the run-end event, seal and sign',
          security: bearer,
          parameters: [runId],
          requestBody: jsonBody(RunFinishSchema),
          responses: {
            '200': ok('The sealed run', RunResourceSchema),
            '404': errorResponse('No such run'),
            '409': errorResponse('Already sealed'),
          },
        },
      },
      '/api/runs/{id}': {
        get: {
          summary: 'The run summary, as `runback inspect --json` gives it',
          security: bearer,
          parameters: [runId],
          responses: {
            '200': {
              description: 'Summary',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            '404': errorResponse('No such run'),
          },
        },
      },
      '/api/runs/{id}/export': {
        get: {
          summary: 'The sealed, signed runback.audit/v2 record (streamed)',
          security: bearer,
          parameters: [runId],
          responses: {
            '200': {
              description: 'Record',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            '404': errorResponse('No such run'),
            '409': errorResponse('Not sealed yet'),
          },
        },
      },
      '/api/log/checkpoint': {
        get: {
          summary:
            "The transparency log's latest checkpoint (C2SP tlog-checkpoint signed note, Ed25519 key of /.well-known/runback-audit-key.pem); JSON with Accept: application/json",
          responses: {
            '200': {
              description: 'The signed checkpoint note, or its JSON form',
              content: {
                'text/plain': { schema: { type: 'string' } },
                'application/json': { schema: schema(CheckpointSchema) },
              },
            },
            '404': errorResponse('No Ed25519 key: the service keeps no log'),
          },
        },
      },
      '/api/log/proof/{run_id}': {
        get: {
          summary:
            'The inclusion proof of a sealed run (runback verify RECORD --proof PROOF.json --log-key PEM reads it); the run is logged first if it is not yet',
          security: bearer,
          parameters: [
            { ...runId, name: 'run_id' },
            ...queryParameters(LogProofQuerySchema).map((p) => ({
              ...p,
              description:
                p['name'] === 'size'
                  ? 'Prove against the checkpoint of this tree size (default: the latest)'
                  : "Add the consistency proof from the checkpoint of this older tree size to the proof's",
            })),
          ],
          responses: {
            '200': ok(
              'The inclusion proof document (with ?from=, its `consistency` member is the consistency proof from that size)',
              InclusionProofAnswerSchema,
            ),
            '400': errorResponse('Tree size out of range'),
            '401': errorResponse('No or wrong key'),
            '404': errorResponse('No such run in this project, or no log'),
            '409': errorResponse('Run not sealed yet'),
          },
        },
      },
      '/api/log/consistency': {
        get: {
          summary:
            'The consistency proof from the checkpoint of tree size `from` to that of `to` (default: the latest): the log only grew (runback log verify --proof reads it)',
          parameters: queryParameters(LogConsistencyQuerySchema).map((p) => ({
            ...p,
            required: p['name'] === 'from',
          })),
          responses: {
            '200': ok('The consistency proof document', ConsistencyProofSchema),
            '400': errorResponse('Tree size out of range'),
            '404': errorResponse('No log'),
          },
        },
      },
      '/api/admin/api-keys': {
        post: {
          summary: 'Issue an API key (the token is shown once)',
          security: [{ admin: [] }],
          requestBody: jsonBody(ApiKeyCreateSchema),
          responses: {
            '201': ok('Issued', ApiKeyCreatedSchema),
            '401': errorResponse('Not admin'),
          },
        },
        get: {
          summary: 'List API keys',
          security: [{ admin: [] }],
          parameters: [
            { name: 'project', in: 'query', required: false, schema: { type: 'string' } },
          ],
          responses: {
            '200': ok('Keys', z.object({ api_keys: z.array(ApiKeySchema) })),
            '401': errorResponse('Not admin'),
          },
        },
      },
      '/api/admin/api-keys/{id}': {
        delete: {
          summary: 'Revoke an API key',
          security: [{ admin: [] }],
          parameters: [runId],
          responses: { '200': { description: 'Revoked' }, '404': errorResponse('No such key') },
        },
      },
      '/healthz': { get: { summary: 'Process up', responses: { '200': { description: 'ok' } } } },
      '/readyz': {
        get: {
          summary: 'Database reachable, migrations applied',
          responses: { '200': { description: 'ready' }, '503': errorResponse('Not ready') },
        },
      },
      '/metrics': {
        get: {
          summary: 'Prometheus metrics',
          responses: { '200': { description: 'text/plain; version=0.0.4' } },
        },
      },
      '/api/openapi.json': {
        get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1' } } },
      },
    },
  };
}
