import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Logger } from '@framedeck/logging';
import { BatchDecodeError, decodeTelemetryBatch, envelopeHeaders } from '@framedeck/proto';
import type { IngestKeyAuthenticator } from '../auth/ingest-key.authenticator.js';
import type { IngestConfig } from '../config.js';
import { IngestError, sendError, sendJson } from '../http/ingest-error.js';
import { readBody } from '../http/request-body.js';
import type { IngestLimiter } from '../limits/ingest.limiter.js';
import { PublishUnavailableError, type BatchMessage } from '../publish/batch.publisher.js';
import { inflateBody } from './inflate.js';
import { parseIngestHeaders } from './request-headers.js';

export type EventsHandlerDeps = {
  authenticate: IngestKeyAuthenticator;
  limiter: IngestLimiter;
  publish: (message: BatchMessage) => Promise<void>;
  config: Pick<IngestConfig, 'bodyTimeoutMs' | 'maxInflatedBytes'>;
  logger: Logger;
};

const ACCEPTED = Buffer.from(JSON.stringify({ status: 'accepted' }));

/**
 * POST /v1/events. Order: headers (no I/O), key, rate limit, body, inflate, decode, monthly
 * budget, publish. Per-event validation is the consumer's; here the body only has to decode
 * as a TelemetryBatch.
 * An empty batch (no events; e.g. an empty body) is answered 202 and nothing is published:
 * there is nothing to store, and an SDK that flushes an empty queue did nothing wrong.
 */
export function createEventsHandler(deps: EventsHandlerDeps) {
  return async function handleEvents(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let bodyRead = false;
    try {
      const headers = parseIngestHeaders(req);
      const principal = await deps.authenticate(headers.apiKey);
      const receivedAt = new Date();
      await deps.limiter.checkRate(principal, receivedAt);

      const body = await readBody(req, headers.contentLength, deps.config.bodyTimeoutMs);
      bodyRead = true;
      const batch = headers.gzip ? await inflateBody(body, deps.config.maxInflatedBytes) : body;
      const events = decode(batch);
      if (events === 0) return sendJson(res, 202, ACCEPTED);

      await deps.limiter.consumeBudget(principal, events, receivedAt);
      const batchId = headers.idempotencyKey ?? randomUUID();
      await publish(deps, {
        value: batch,
        headers: envelopeHeaders({
          batchId,
          projectId: principal.projectId,
          tenantId: principal.tenantId,
          receivedAtMs: receivedAt.getTime(),
          sdkVersion: headers.sdkVersion,
          eventCount: events,
        }),
      });
      sendJson(res, 202, ACCEPTED, { 'x-batch-id': batchId });
    } catch (error) {
      // NOTE: a refusal before the body was read closes the connection: the unread body would
      // otherwise be parsed as the next request on this keep-alive socket.
      if (error instanceof IngestError) return sendError(res, error, !bodyRead);
      deps.logger.error({ err: error }, 'ingest request failed');
      sendError(res, new IngestError(500, 'Internal error.'), !bodyRead);
    }
  };
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

async function publish(deps: EventsHandlerDeps, message: BatchMessage): Promise<void> {
  try {
    await deps.publish(message);
  } catch (error) {
    if (error instanceof PublishUnavailableError) {
      throw new IngestError(503, 'Event storage is temporarily unavailable; retry later.', { 'retry-after': '5' });
    }
    throw error;
  }
}
