import { createHash } from 'node:crypto';

/**
 * The batch id of a batch sent without an Idempotency-Key: a hash of the project and the
 * batch's inflated bytes, so a retry of the same batch (the public SDKs retry timeouts, 429 and
 * 5xx without a key) gets the same batch id, hence the same event ids, and is stored once
 * (the events table collapses equal event ids; see libs/clickhouse event-id.ts).
 * Inflated bytes: the same batch sent once gzipped and once plain is one batch too.
 *
 * DECISION: two byte-identical batches of one project are one batch. A sender that means to
 * store the same events twice must make the bytes differ (timestamps normally do) or send a
 * distinct Idempotency-Key with each.
 *
 * Shape: an RFC 9562 version 8 (custom) UUID made of the first 128 bits of
 * SHA-256(project id, 0x00, bytes), with the version and variant bits set.
 */
export function contentBatchId(projectId: string, inflated: Uint8Array): string {
  const digest = createHash('sha256').update(projectId).update('\0').update(inflated).digest();
  digest[6] = (digest[6]! & 0x0f) | 0x80;
  digest[8] = (digest[8]! & 0x3f) | 0x80;
  const hex = digest.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
