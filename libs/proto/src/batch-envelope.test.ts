import { describe, expect, it } from 'vitest';
import { ENVELOPE_HEADERS, envelopeHeaders, parseEnvelopeHeaders } from './batch-envelope.js';

const envelope = {
  batchId: '0b8f4c1e-5a57-4a39-9c1c-1f0c2a5d9e01',
  projectId: '6f1d2b61-0a3b-4e0b-8f3e-2a7c7d1e4f52',
  tenantId: '9c0e8a34-7d0f-4f7e-b1c5-3e6a2d8f1b73',
  receivedAtMs: 1_767_225_600_000,
  sdkVersion: 'unity/2.1.0',
  eventCount: 12,
  firstEventIndex: 0,
  retentionDays: 90,
};

describe('batch envelope', () => {
  it('round-trips through Kafka header values (Buffers)', () => {
    const asKafka = Object.fromEntries(Object.entries(envelopeHeaders(envelope)).map(([k, v]) => [k, Buffer.from(v)]));
    expect(parseEnvelopeHeaders(asKafka)).toEqual(envelope);
  });

  it('carries the synthetic flag of a CI key, and only when set', () => {
    const headers = envelopeHeaders({ ...envelope, synthetic: true });
    expect(headers[ENVELOPE_HEADERS.synthetic]).toBe('1');
    expect(parseEnvelopeHeaders(headers)).toEqual({ ...envelope, synthetic: true });
    expect(envelopeHeaders(envelope)).not.toHaveProperty(ENVELOPE_HEADERS.synthetic);
  });

  it('reads a message written before gateways sent the retention as keeping the default 90 days', () => {
    const { [ENVELOPE_HEADERS.retentionDays]: _, ...older } = envelopeHeaders({ ...envelope, retentionDays: 7 });
    expect(parseEnvelopeHeaders(older)).toEqual({ ...envelope, retentionDays: 90 });
  });

  it('reads a message written before batches could be split as starting at event 0', () => {
    const { [ENVELOPE_HEADERS.firstEventIndex]: _, ...older } = envelopeHeaders({ ...envelope, firstEventIndex: 7 });
    expect(parseEnvelopeHeaders(older)).toEqual(envelope);
  });

  it.each([
    ['no headers', undefined],
    ['another content type', { ...envelopeHeaders(envelope), [ENVELOPE_HEADERS.contentType]: 'json' }],
    ['a malformed project id', { ...envelopeHeaders(envelope), [ENVELOPE_HEADERS.projectId]: 'nope' }],
    ['no receipt time', { ...envelopeHeaders(envelope), [ENVELOPE_HEADERS.receivedAtMs]: undefined }],
    ['a negative first event index', { ...envelopeHeaders(envelope), [ENVELOPE_HEADERS.firstEventIndex]: '-1' }],
    ['a retention of 0 days', { ...envelopeHeaders(envelope), [ENVELOPE_HEADERS.retentionDays]: '0' }],
    ['a synthetic flag other than 1', { ...envelopeHeaders(envelope), [ENVELOPE_HEADERS.synthetic]: 'yes' }],
  ])('names the problem for %s', (_, headers) => {
    expect(typeof parseEnvelopeHeaders(headers)).toBe('string');
  });
});
