import { z } from 'zod';
import { ConfigError, env, readEnv, type Env } from './env.js';

/**
 * Kafka: where the brokers are, how FrameDeck's topics are created, how clients authenticate,
 * and how large a produce request may grow. Defaults suit the single local broker started by
 * infra/local/up.sh; docs/kafka.md lists what to change for a cluster or a managed service.
 */

export const KAFKA_SASL_MECHANISMS = ['none', 'scram-sha-256', 'scram-sha-512', 'plain'] as const;
export const KAFKA_COMPRESSIONS = ['gzip', 'none'] as const;

/** The stock broker's `message.max.bytes` (1 MB plus record-batch overhead). */
export const STOCK_MAX_MESSAGE_BYTES = 1_048_588;

export function kafkaSection(source: Env) {
  const e = readEnv(
    {
      // Bootstrap brokers, comma-separated host:port.
      FRAMEDECK_KAFKA_BROKERS: env.list(['127.0.0.1:9092']),
      // How the brokers name our connections (logs, quotas).
      FRAMEDECK_KAFKA_CLIENT_ID: env.string('framedeck'),
      // Raw batches from the gateway to the consumer; created (or grown) by `migrate`.
      FRAMEDECK_KAFKA_EVENTS_TOPIC: env.string('framedeck.telemetry-batches.v1'),
      // Partitions of the events topic: the most consumers that can share the work.
      FRAMEDECK_KAFKA_EVENTS_PARTITIONS: env.positiveInt(4),
      // Batches the consumer cannot decode, kept with the reason in headers.
      FRAMEDECK_KAFKA_DEAD_LETTER_TOPIC: env.string('framedeck.telemetry-batches.dead-letter.v1'),
      // Consumer instances of one group share the partitions.
      FRAMEDECK_KAFKA_CONSUMER_GROUP: env.string('framedeck-events-consumer'),
      // Topic settings, applied to the events topic and the dead-letter topic alike.
      FRAMEDECK_KAFKA_REPLICATION_FACTOR: env.positiveInt(1),
      // Replicas that must have a write before it is acknowledged (acks=all); at most the replication factor.
      FRAMEDECK_KAFKA_MIN_INSYNC_REPLICAS: env.positiveInt(1),
      // How long batches stay in the topics (-1: forever); the default is a week.
      FRAMEDECK_KAFKA_RETENTION_MS: z.coerce
        .number()
        .int()
        .min(-1)
        .default(7 * 24 * 3_600_000),
      // Per partition; -1 keeps everything younger than the retention time.
      FRAMEDECK_KAFKA_RETENTION_BYTES: z.coerce.number().int().min(-1).default(-1),
      // The topics' max.message.bytes: the largest record batch a broker accepts.
      FRAMEDECK_KAFKA_TOPIC_MAX_MESSAGE_BYTES: env.positiveInt(STOCK_MAX_MESSAGE_BYTES),
      // Producer side: no record batch we send exceeds this (the broker refuses larger ones).
      FRAMEDECK_KAFKA_MAX_RECORD_BATCH_BYTES: env.positiveInt(1_000_000),
      // Compression of the record batches we produce.
      FRAMEDECK_KAFKA_COMPRESSION: z.enum(KAFKA_COMPRESSIONS).default('gzip'),
      // Authentication and transport.
      FRAMEDECK_KAFKA_SASL_MECHANISM: z.enum(KAFKA_SASL_MECHANISMS).default('none'),
      // SCRAM or PLAIN credentials, needed when FRAMEDECK_KAFKA_SASL_MECHANISM is not none.
      FRAMEDECK_KAFKA_SASL_USERNAME: z.string().min(1).optional(),
      // Password of FRAMEDECK_KAFKA_SASL_USERNAME.
      FRAMEDECK_KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
      // 1: connect to the brokers over TLS.
      FRAMEDECK_KAFKA_TLS: env.bool(false),
      // PEM file of the CA that signed the brokers' certificates (default: Node's built-in CAs).
      FRAMEDECK_KAFKA_TLS_CA_FILE: z.string().min(1).optional(),
      // A client certificate and its key (PEM files): both or neither.
      FRAMEDECK_KAFKA_TLS_CERT_FILE: z.string().min(1).optional(),
      // Private key of FRAMEDECK_KAFKA_TLS_CERT_FILE.
      FRAMEDECK_KAFKA_TLS_KEY_FILE: z.string().min(1).optional(),
    },
    source,
  );
  const problems: string[] = [];
  if (e.FRAMEDECK_KAFKA_MIN_INSYNC_REPLICAS > e.FRAMEDECK_KAFKA_REPLICATION_FACTOR) {
    problems.push(
      `FRAMEDECK_KAFKA_MIN_INSYNC_REPLICAS=${e.FRAMEDECK_KAFKA_MIN_INSYNC_REPLICAS}: must not exceed FRAMEDECK_KAFKA_REPLICATION_FACTOR (${e.FRAMEDECK_KAFKA_REPLICATION_FACTOR}), or no write could ever be acknowledged`,
    );
  }
  if (e.FRAMEDECK_KAFKA_MAX_RECORD_BATCH_BYTES > e.FRAMEDECK_KAFKA_TOPIC_MAX_MESSAGE_BYTES) {
    problems.push(
      `FRAMEDECK_KAFKA_MAX_RECORD_BATCH_BYTES=${e.FRAMEDECK_KAFKA_MAX_RECORD_BATCH_BYTES}: must not exceed FRAMEDECK_KAFKA_TOPIC_MAX_MESSAGE_BYTES (${e.FRAMEDECK_KAFKA_TOPIC_MAX_MESSAGE_BYTES}), or the topic refuses what we send`,
    );
  }
  const mechanism = e.FRAMEDECK_KAFKA_SASL_MECHANISM;
  const username = e.FRAMEDECK_KAFKA_SASL_USERNAME;
  const password = e.FRAMEDECK_KAFKA_SASL_PASSWORD;
  if (mechanism !== 'none' && (username === undefined || password === undefined)) {
    problems.push(
      `FRAMEDECK_KAFKA_SASL_MECHANISM=${mechanism}: needs FRAMEDECK_KAFKA_SASL_USERNAME and FRAMEDECK_KAFKA_SASL_PASSWORD`,
    );
  }
  const clientCert = [e.FRAMEDECK_KAFKA_TLS_CERT_FILE, e.FRAMEDECK_KAFKA_TLS_KEY_FILE];
  if (clientCert.filter((file) => file !== undefined).length === 1) {
    problems.push(
      'FRAMEDECK_KAFKA_TLS_CERT_FILE and FRAMEDECK_KAFKA_TLS_KEY_FILE: set both (a client certificate) or neither',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    brokers: e.FRAMEDECK_KAFKA_BROKERS,
    clientId: e.FRAMEDECK_KAFKA_CLIENT_ID,
    eventsTopic: e.FRAMEDECK_KAFKA_EVENTS_TOPIC,
    eventsPartitions: e.FRAMEDECK_KAFKA_EVENTS_PARTITIONS,
    deadLetterTopic: e.FRAMEDECK_KAFKA_DEAD_LETTER_TOPIC,
    consumerGroup: e.FRAMEDECK_KAFKA_CONSUMER_GROUP,
    topics: {
      replicationFactor: e.FRAMEDECK_KAFKA_REPLICATION_FACTOR,
      minInsyncReplicas: e.FRAMEDECK_KAFKA_MIN_INSYNC_REPLICAS,
      retentionMs: e.FRAMEDECK_KAFKA_RETENTION_MS,
      retentionBytes: e.FRAMEDECK_KAFKA_RETENTION_BYTES,
      maxMessageBytes: e.FRAMEDECK_KAFKA_TOPIC_MAX_MESSAGE_BYTES,
    },
    producer: {
      maxRecordBatchBytes: e.FRAMEDECK_KAFKA_MAX_RECORD_BATCH_BYTES,
      compression: e.FRAMEDECK_KAFKA_COMPRESSION,
    },
    /** Null: no SASL. PLAIN sends the password as is: use it over TLS only. */
    sasl: mechanism === 'none' ? null : { mechanism, username: username!, password: password! },
    /** Null: plaintext. Files are read when a client is created (libs/kafka). */
    tls: e.FRAMEDECK_KAFKA_TLS
      ? {
          caFile: e.FRAMEDECK_KAFKA_TLS_CA_FILE ?? null,
          certFile: e.FRAMEDECK_KAFKA_TLS_CERT_FILE ?? null,
          keyFile: e.FRAMEDECK_KAFKA_TLS_KEY_FILE ?? null,
        }
      : null,
  };
}
export type KafkaConfig = ReturnType<typeof kafkaSection>;
