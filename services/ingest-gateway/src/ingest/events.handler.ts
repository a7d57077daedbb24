import type http from 'node:http';
import { clientAddress, type ProxyTrust } from '@framedeck/http-edge';
import type { Logger } from '@framedeck/logging';
import type { IngestMetrics } from '@framedeck/metrics';
import { BatchDecodeError, decodeTelemetryBatch, OversizedEventError } from '@framedeck/proto';
import { InvalidKeyError, type IngestKeyAuthenticator } from '../auth/ingest-key.authenticator.js';
import type { IngestConfig } from '../config.js';
import { answerBeforeBody, type EarlyRefusalLimits } from '../http/early-refusal.js';
import { IngestError, sendError, sendJson } from '../http/ingest-error.js';
import { readBody } from '../http/request-body.js';
import type { IngestLimiter, InvalidKeyLimiter } from '../limits/ingest.limiter.js';
import type { AcceptedBatch } from '../publish/batch-messages.js';
import { PublishUnavailableError } from '../publish/batch.publisher.js';
import { contentBatchId } from './batch-id.js';
import { inflateBody } from './inflate.js';
import { MAX_BODY_BYTES, parseIngestHeaders } from './request-headers.js';

export type EventsHandlerDeps = {
  authenticate: IngestKeyAuthenticator;
  limiter: IngestLimiter;
  invalidKeys: InvalidKeyLimiter;
  publish: (batch: AcceptedBatch) => Promise<void>;
  config: Pick<IngestConfig, 'bodyTimeoutMs' | 'maxInflatedBytes' | 'lingerMs'>;
  logger: Logger;
  /** Which peers may report the client's address (X-Forwarded-For) for the invalid-key limiter. */
  trust: ProxyTrust;
  metrics: Pick<IngestMetrics, 'requests' | 'events'>;
};

/** How refusals decided before the body is read are answered (see early-refusal.ts). */
export function earlyRefusalLimits(config: Pick<IngestConfig, 'bodyTimeoutMs' | 'lingerMs'>): EarlyRefusalLimits {
  return { drainCapBytes: MAX_BODY_BYTES, drainTimeoutMs: config.bodyTimeoutMs, lingerMs: config.lingerMs };
}

const ACCEPTED = Buffer.from(JSON.stringify({ status: 'accepted' }));

/**
 * POST /v1/events. Order: headers (no I/O), client address not blocked for invalid keys, key,
 * rate limit, body, inflate, decode, monthly budget, publish. Per-event validation is the
 * consumer's; here the body only has to decode as a TelemetryBatch.
 * An empty batch (no events; e.g. an empty body) is answered 202 and nothing is published:
 * there is nothing to store, and an SDK that flushes an empty queue did nothing wrong.
 * Batch id: the sender's Idempotency-Key, else a hash of the project and the inflated bytes
 * (batch-id.ts), so a retried batch is stored once either way.
 */
export function createEventsHandler(deps: EventsHandlerDeps) {
  const refusalLimits = earlyRefusalLimits(deps.config);
  return async function handleEvents(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let phase: 'headers' | 'body' | 'read' = 'headers';
    let events = 0;
    res.once('close', () => countRequest(deps.metrics, res, events));
    try {
      const headers = parseIngestHeaders(req);
      const receivedAt = new Date();
      const address = clientAddress(req, deps.trust);
      deps.invalidKeys.check(address, receivedAt);
      const principal = await deps.authenticate(headers.apiKey).catch(async (error: unknown) => {
        if (error instanceof InvalidKeyError) await deps.invalidKeys.recordInvalidKey(address, receivedAt);
        throw error;
      });
      await deps.limiter.checkRate(principal, receivedAt);

      phase = 'body';
      const body = await readBody(req, headers.contentLength, deps.config.bodyTimeoutMs);
      phase = 'read';
      const batch = headers.gzip ? await inflateBody(body, deps.config.maxInflatedBytes) : body;
      events = decode(batch);
      if (events === 0) return sendJson(res, 202, ACCEPTED);

      await deps.limiter.consumeBudget(principal, events, receivedAt);
      const batchId = headers.idempotencyKey ?? contentBatchId(principal.projectId, batch);
      await publish(deps, {
        value: batch,
        envelope: {
          batchId,
          projectId: principal.projectId,
          tenantId: principal.tenantId,
          receivedAtMs: receivedAt.getTime(),
          sdkVersion: headers.sdkVersion,
          retentionDays: principal.retentionDays,
          ...(principal.synthetic ? { synthetic: true as const } : {}),
        },
      });
      sendJson(res, 202, ACCEPTED, { 'x-batch-id': batchId });
    } catch (error) {
      const refusal = error instanceof IngestError ? error : new IngestError(500, 'Internal error.');
      if (refusal.status === 500) deps.logger.error({ err: error }, 'ingest request failed');
      // NOTE: a refusal before the body was read discards the body first (or closes lingering),
      // so the answer is not lost to a TCP reset; one while reading it closes the connection,
      // since what is left of the body would otherwise be parsed as the next request.
      if (phase === 'headers') return answerBeforeBody(req, res, refusal, refusalLimits);
      sendError(res, refusal, phase === 'body');
    }
  };
}

/** One count per request and its events by the status answered; `aborted` when the client left unanswered. */
function countRequest(metrics: EventsHandlerDeps['metrics'], res: http.ServerResponse, events: number): void {
  const status = res.headersSent ? String(res.statusCode) : 'aborted';
  metrics.requests.inc({ status });
  if (events > 0) metrics.events.inc({ status }, events);
}

/** Returns the number of events; any decoding failure is the sender's (400). */
function decode(batch: Buffer): number {
  try {
    return decodeTelemetryBatch(batch).length;
  } catch (error) {
    if (error instanceof BatchDecodeError) {
      throw new IngestError(400, 'Body is not a valid protobuf TelemetryBatch.');
    }
    throw error;
  }
}

async function publish(deps: EventsHandlerDeps, batch: AcceptedBatch): Promise<void> {
  try {
    await deps.publish(batch);
  } catch (error) {
    if (error instanceof OversizedEventError) {
      // Only a batch holding one event of about a megabyte gets here: no Kafka record can carry it.
      throw new IngestError(413, `Event ${error.eventIndex} is too large (${error.eventBytes} bytes encoded).`);
    }
    if (error instanceof PublishUnavailableError) {
      throw new IngestError(503, 'Event storage is temporarily unavailable; retry later.', { 'retry-after': '5' });
    }
    throw error;
  }
}
