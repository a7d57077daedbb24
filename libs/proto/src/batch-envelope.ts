/**
 * How an accepted batch travels from the ingest gateway to the events consumer: one Kafka
 * message whose value is the inflated TelemetryBatch bytes exactly as the sender encoded them,
 * and whose headers carry what the gateway learned from the request (the key's project and
 * tenant, the receipt time, the SDK version, whether the key marks automated runs) plus the
 * batch id that event ids derive from.
 */

export const BATCH_CONTENT_TYPE = 'telemetry.v1.TelemetryBatch';

export const ENVELOPE_HEADERS = {
  contentType: 'fd-content-type',
  batchId: 'fd-batch-id',
  projectId: 'fd-project-id',
  tenantId: 'fd-tenant-id',
  receivedAtMs: 'fd-received-at-ms',
  sdkVersion: 'fd-sdk-version',
  eventCount: 'fd-event-count',
  firstEventIndex: 'fd-first-event-index',
  retentionDays: 'fd-retention-days',
  synthetic: 'fd-synthetic',
} as const;

/** Retention of messages without the header (published before gateways sent it): the default plan's. */
export const DEFAULT_RETENTION_DAYS = 90;

export type BatchEnvelope = {
  batchId: string;
  projectId: string;
  tenantId: string;
  receivedAtMs: number;
  sdkVersion: string;
  eventCount: number;
  /**
   * Index in the sender's batch of this message's first event: 0 unless the gateway split a
   * batch too large for one Kafka message (batch-split.ts); absent in older messages (0).
   */
  firstEventIndex: number;
  /**
   * How many days the project keeps raw events, read by the gateway from the project's
   * setting; the consumer stamps it on every row (it leads the events partition key).
   */
  retentionDays: number;
  /**
   * The key that sent the batch holds events:synthetic (a CI key): the consumer stores every
   * event's source as automated, whatever the event says. The gateway decides it because only
   * it sees the key; it travels with the batch so a redelivery or a dead-letter replay decides
   * the same. Absent (sent only when true) for every other key and in older messages.
   */
  synthetic?: true;
};

export function envelopeHeaders(envelope: BatchEnvelope): Record<string, string> {
  return {
    [ENVELOPE_HEADERS.contentType]: BATCH_CONTENT_TYPE,
    [ENVELOPE_HEADERS.batchId]: envelope.batchId,
    [ENVELOPE_HEADERS.projectId]: envelope.projectId,
    [ENVELOPE_HEADERS.tenantId]: envelope.tenantId,
    [ENVELOPE_HEADERS.receivedAtMs]: String(envelope.receivedAtMs),
    [ENVELOPE_HEADERS.sdkVersion]: envelope.sdkVersion,
    [ENVELOPE_HEADERS.eventCount]: String(envelope.eventCount),
    [ENVELOPE_HEADERS.firstEventIndex]: String(envelope.firstEventIndex),
    [ENVELOPE_HEADERS.retentionDays]: String(envelope.retentionDays),
    ...(envelope.synthetic ? { [ENVELOPE_HEADERS.synthetic]: '1' } : {}),
  };
}

type RawHeaders = Readonly<Record<string, Buffer | string | (Buffer | string)[] | undefined>> | undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads the envelope back; a string naming the problem when a header is missing or malformed. */
export function parseEnvelopeHeaders(headers: RawHeaders): BatchEnvelope | string {
  const get = (name: string): string | undefined => {
    const value = headers?.[name];
    const single = Array.isArray(value) ? value[0] : value;
    return single === undefined ? undefined : single.toString();
  };
  if (get(ENVELOPE_HEADERS.contentType) !== BATCH_CONTENT_TYPE) return 'unexpected content type';
  const batchId = get(ENVELOPE_HEADERS.batchId) ?? '';
  const projectId = get(ENVELOPE_HEADERS.projectId) ?? '';
  const tenantId = get(ENVELOPE_HEADERS.tenantId) ?? '';
  if (!UUID.test(batchId) || !UUID.test(projectId) || !UUID.test(tenantId)) return 'missing or malformed id header';
  const receivedAtMs = Number(get(ENVELOPE_HEADERS.receivedAtMs));
  const eventCount = Number(get(ENVELOPE_HEADERS.eventCount) ?? Number.NaN);
  if (!Number.isSafeInteger(receivedAtMs) || receivedAtMs <= 0) return 'missing or malformed receipt time';
  const firstEventIndex = Number(get(ENVELOPE_HEADERS.firstEventIndex) ?? 0);
  if (!Number.isSafeInteger(firstEventIndex) || firstEventIndex < 0) return 'malformed first event index';
  const retentionDays = Number(get(ENVELOPE_HEADERS.retentionDays) ?? DEFAULT_RETENTION_DAYS);
  if (!Number.isInteger(retentionDays) || retentionDays < 1 || retentionDays > 65_535)
    return 'malformed retention days';
  const synthetic = get(ENVELOPE_HEADERS.synthetic);
  if (synthetic !== undefined && synthetic !== '1') return 'malformed synthetic flag';
  return {
    batchId,
    projectId,
    tenantId,
    receivedAtMs,
    sdkVersion: get(ENVELOPE_HEADERS.sdkVersion) ?? '',
    eventCount: Number.isSafeInteger(eventCount) ? eventCount : -1,
    firstEventIndex,
    retentionDays,
    ...(synthetic === '1' ? { synthetic: true as const } : {}),
  };
}
