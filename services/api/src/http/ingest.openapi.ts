import { z } from 'zod';
import type { ZodOpenApiPathsObject, ZodOpenApiResponseObject } from 'zod-openapi';

/** The spec's body limit, measured as sent (after gzip); the gateway enforces it (services/ingest-gateway). */
const INGEST_MAX_BODY_BYTES = 126_000;

const IngestError = z
  .strictObject({ error: z.string().meta({ description: 'Human-readable; never echoes the key.' }) })
  .meta({ id: 'IngestError', description: 'Every ingest refusal: this object only (not problem+json).' });

const retryAfter = { description: 'Seconds to wait before retrying.', schema: { type: 'integer' as const } };

const refusal = (description: string, headers?: ZodOpenApiResponseObject['headers']): ZodOpenApiResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: IngestError } },
});

/**
 * POST /v1/events on {ingest_url}: the ingest gateway's one endpoint, documented beside the API
 * so one document describes everything a client calls. The statuses are the gateway's (a test
 * provokes each of them and compares).
 */
export function ingestOpenApiPaths(ingestUrl: string): ZodOpenApiPathsObject {
  return {
    '/v1/events': {
      servers: [{ url: ingestUrl, description: '{ingest_url}: the ingest service, separate from the API' }],
      post: {
        operationId: 'ingestEvents',
        summary: 'Send a batch of telemetry events (protobuf TelemetryBatch)',
        description:
          'The body is one encoded telemetry.v1.TelemetryBatch (proto/telemetry/v1/telemetry.proto), plain or ' +
          `gzip, at most ${INGEST_MAX_BODY_BYTES} bytes as sent. 202 means accepted for asynchronous processing ` +
          '(stored durably in Kafka); events are validated afterwards and invalid ones are discarded and counted ' +
          '(project status). Visible to queries within seconds.\n\n' +
          'Idempotency: a batch retried with the same Idempotency-Key, or without one but with the same bytes ' +
          '(after gzip is undone) for the same project, is stored once: two byte-identical batches of one project ' +
          'are one batch. The batch id is returned in X-Batch-Id.\n\n' +
          'Refusals decided before the body is read (401, 403, 411, 413, 415, 429) are answered after the body ' +
          `is read and discarded when it is at most ${INGEST_MAX_BODY_BYTES} bytes (the connection stays open); a ` +
          'larger or unframed body is answered at once with Connection: close.\n\n' +
          'Requires an API key with scope `events:write` (X-API-Key; no OAuth). Unknown or deactivated keys are ' +
          'limited per client address (by default 20 per 60 s; then 429 with Retry-After, whatever the key).',
        tags: ['Ingest'],
        security: [{ ApiKeyAuth: [] }],
        'x-required-scope': 'events:write',
        requestParams: {
          header: z.object({
            'X-SDK-Version': z
              .string()
              .max(128)
              .meta({ description: 'Sender SDK name and version, e.g. unity/2.1.0.' }),
            'Content-Length': z
              .int()
              .min(0)
              .max(INGEST_MAX_BODY_BYTES)
              .meta({ description: 'Required (411 without it); the body size as sent.' }),
            'Content-Encoding': z.literal('gzip').optional().meta({ description: 'gzip only, when compressed.' }),
            'Idempotency-Key': z
              .uuid()
              .optional()
              .meta({ description: 'Becomes the batch id; send the same one with every retry of a batch.' }),
          }),
        },
        requestBody: {
          required: true,
          content: {
            'application/x-protobuf': {
              schema: z.string().meta({ format: 'binary', description: 'An encoded TelemetryBatch.' }),
            },
          },
        },
        responses: {
          202: {
            description: 'Accepted for asynchronous processing (also an empty batch, which stores nothing).',
            headers: {
              'X-Batch-Id': {
                description: 'The batch id (the Idempotency-Key, or derived from the project and the bytes).',
                schema: { type: 'string' },
              },
            },
            content: { 'application/json': { schema: z.strictObject({ status: z.literal('accepted') }) } },
          },
          400: refusal(
            'Not a valid TelemetryBatch (including over-long varints and wrong wire types), a corrupt gzip stream, ' +
              'a body shorter than Content-Length, or a missing or invalid X-SDK-Version or Idempotency-Key.',
          ),
          401: refusal('Missing X-API-Key.'),
          403: refusal('Unknown or deactivated key, or a key without events:write.'),
          411: refusal('No Content-Length (e.g. a chunked body).'),
          413: refusal(`Body over ${INGEST_MAX_BODY_BYTES} bytes as sent, or a gzip body inflating past the cap.`),
          415: refusal('Content-Type other than application/x-protobuf, or Content-Encoding other than gzip.'),
          429: refusal(
            'Batches per second of the plan, monthly event budget, or too many invalid keys from this address.',
            { 'Retry-After': retryAfter },
          ),
          503: refusal('Event storage (Kafka) or key verification temporarily unavailable.', {
            'Retry-After': retryAfter,
          }),
        },
      },
    },
  };
}
