import type http from 'node:http';
import { IngestError } from '../http/ingest-error.js';

/** Spec: the body, as sent (i.e. after gzip), is at most 126,000 bytes. */
export const MAX_BODY_BYTES = 126_000;

export type IngestHeaders = {
  apiKey: string;
  sdkVersion: string;
  contentLength: number;
  gzip: boolean;
  /** Optional Idempotency-Key (a UUID): becomes the batch id, so a retried batch dedups. */
  idempotencyKey: string | undefined;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_SDK_VERSION_LENGTH = 128;

/**
 * Checks every header rule of POST /v1/events before a byte of the body is read, cheapest and
 * most fundamental first: key present (401), media type (415), framing (411, 400, 413),
 * required metadata (400).
 */
export function parseIngestHeaders(req: http.IncomingMessage): IngestHeaders {
  const h = req.headers;
  const apiKey = single(h['x-api-key']);
  if (!apiKey) throw new IngestError(401, 'Missing X-API-Key header.');

  const mediaType = (h['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/x-protobuf') {
    throw new IngestError(415, 'Content-Type must be application/x-protobuf.');
  }
  const encoding = h['content-encoding']?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== 'gzip') {
    throw new IngestError(415, 'Content-Encoding must be gzip when present.');
  }

  const lengthHeader = h['content-length'];
  if (lengthHeader === undefined) throw new IngestError(411, 'Content-Length header is required.');
  if (!/^\d{1,10}$/.test(lengthHeader)) throw new IngestError(400, 'Content-Length is not a valid length.');
  const contentLength = Number(lengthHeader);
  if (contentLength > MAX_BODY_BYTES) {
    throw new IngestError(413, `Request body exceeds ${MAX_BODY_BYTES} bytes (measured after gzip).`);
  }

  const sdkVersion = single(h['x-sdk-version'])?.trim();
  if (!sdkVersion) throw new IngestError(400, 'Missing X-SDK-Version header.');
  if (sdkVersion.length > MAX_SDK_VERSION_LENGTH) {
    throw new IngestError(400, `X-SDK-Version is longer than ${MAX_SDK_VERSION_LENGTH} characters.`);
  }

  const idempotencyKey = single(h['idempotency-key'])?.trim();
  if (idempotencyKey !== undefined && !UUID.test(idempotencyKey)) {
    throw new IngestError(400, 'Idempotency-Key must be a UUID.');
  }
  return {
    apiKey,
    sdkVersion,
    contentLength,
    gzip: encoding === 'gzip',
    idempotencyKey: idempotencyKey?.toLowerCase(),
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
