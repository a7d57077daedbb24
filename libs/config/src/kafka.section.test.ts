import { describe, expect, it } from 'vitest';
import { kafkaSection, STOCK_MAX_MESSAGE_BYTES } from './kafka.section.js';

describe('kafka configuration', () => {
  it('defaults to a single local broker, a stock message limit, gzip, no SASL and no TLS', () => {
    const config = kafkaSection({});
    expect(config.topics).toEqual({
      replicationFactor: 1,
      minInsyncReplicas: 1,
      retentionMs: 604_800_000,
      retentionBytes: -1,
      maxMessageBytes: STOCK_MAX_MESSAGE_BYTES,
    });
    expect(config.producer).toEqual({ maxRecordBatchBytes: 1_000_000, compression: 'gzip' });
    expect(config.sasl).toBeNull();
    expect(config.tls).toBeNull();
  });

  it('reads a managed-cluster set-up', () => {
    const config = kafkaSection({
      FRAMEDECK_KAFKA_REPLICATION_FACTOR: '3',
      FRAMEDECK_KAFKA_MIN_INSYNC_REPLICAS: '2',
      FRAMEDECK_KAFKA_RETENTION_MS: '-1',
      FRAMEDECK_KAFKA_SASL_MECHANISM: 'scram-sha-512',
      FRAMEDECK_KAFKA_SASL_USERNAME: 'framedeck',
      FRAMEDECK_KAFKA_SASL_PASSWORD: 's3cret',
      FRAMEDECK_KAFKA_TLS: 'true',
      FRAMEDECK_KAFKA_TLS_CA_FILE: '/etc/kafka/ca.pem',
    });
    expect(config.topics).toMatchObject({ replicationFactor: 3, minInsyncReplicas: 2, retentionMs: -1 });
    expect(config.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'framedeck', password: 's3cret' });
    expect(config.tls).toEqual({ caFile: '/etc/kafka/ca.pem', certFile: null, keyFile: null });
  });

  it.each([
    [{ FRAMEDECK_KAFKA_MIN_INSYNC_REPLICAS: '2' }, /MIN_INSYNC_REPLICAS=2: must not exceed/],
    [{ FRAMEDECK_KAFKA_MAX_RECORD_BATCH_BYTES: '2000000' }, /MAX_RECORD_BATCH_BYTES=2000000: must not exceed/],
    [{ FRAMEDECK_KAFKA_SASL_MECHANISM: 'scram-sha-256' }, /needs FRAMEDECK_KAFKA_SASL_USERNAME/],
    [{ FRAMEDECK_KAFKA_TLS: '1', FRAMEDECK_KAFKA_TLS_CERT_FILE: 'c.pem' }, /set both/],
    [{ FRAMEDECK_KAFKA_COMPRESSION: 'snappy' }, /FRAMEDECK_KAFKA_COMPRESSION="snappy"/],
  ])('refuses an inconsistent set-up: %o', (source, message) => {
    expect(() => kafkaSection(source)).toThrow(message);
  });
});
