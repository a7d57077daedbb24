import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { createKafka, createProducer, ensureTopics } from '@framedeck/kafka';
import { encodeTelemetryBatch, ENVELOPE_HEADERS } from '@framedeck/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchPublisher } from '../../services/ingest-gateway/src/publish/batch.publisher.js';
import { KAFKA_SCRAM } from '../support/config.js';
import { deleteTopics, freshKafkaConfig, quietLogger, readTopic } from './kafka-fixtures.js';

/**
 * The local broker's SASL_PLAINTEXT and SASL_SSL listeners ask for SCRAM credentials
 * (infra/kafka/server.properties; the user and the TLS certificate are made by
 * infra/local/up.sh). FrameDeck's own client code — createKafka from the config, ensureTopics,
 * the gateway's publisher — must work through them, and a client with the wrong password, with
 * none, or that does not trust the broker's CA must be refused with an error that says so.
 */

const scramConfig = (mechanism: string, password: string = KAFKA_SCRAM.password, env?: Record<string, string>) =>
  freshKafkaConfig({
    FRAMEDECK_KAFKA_BROKERS: KAFKA_SCRAM.broker,
    FRAMEDECK_KAFKA_SASL_MECHANISM: mechanism,
    FRAMEDECK_KAFKA_SASL_USERNAME: KAFKA_SCRAM.username,
    FRAMEDECK_KAFKA_SASL_PASSWORD: password,
    ...env,
  });
const tlsEnv = { FRAMEDECK_KAFKA_BROKERS: KAFKA_SCRAM.tlsBroker, FRAMEDECK_KAFKA_TLS: 'true' };

const created: ReturnType<typeof scramConfig>[] = [];

function listening(address: string): Promise<boolean> {
  const [host, port] = address.split(':') as [string, string];
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(Number(port), host, () => resolve(true)).on('error', () => resolve(false));
    socket.setTimeout(2_000, () => resolve(false));
  }).finally(() => undefined);
}

beforeAll(async () => {
  for (const address of [KAFKA_SCRAM.broker, KAFKA_SCRAM.tlsBroker]) {
    if (!(await listening(address))) {
      throw new Error(
        `No SCRAM listener on ${address}: this broker was started before infra/kafka/server.properties ` +
          'had one. Restart Kafka with the project scripts (infra/local/down.sh kafka; infra/local/up.sh kafka).',
      );
    }
  }
});

afterAll(async () => {
  for (const config of created) await deleteTopics(config).catch(() => undefined);
});

describe('Kafka through the SCRAM listeners', () => {
  it.each([
    ['scram-sha-256', 'SASL_PLAINTEXT', {}],
    ['scram-sha-512', 'SASL_PLAINTEXT', {}],
    ['scram-sha-512', 'SASL_SSL', { ...tlsEnv, FRAMEDECK_KAFKA_TLS_CA_FILE: KAFKA_SCRAM.caFile }],
  ])(
    'creates the topics, publishes a batch with acks=all and reads it back (%s over %s)',
    async (mechanism, _listener, env: Record<string, string>) => {
      const config = scramConfig(mechanism, KAFKA_SCRAM.password, env);
      created.push(config);
      const kafka = createKafka(config, quietLogger);
      const report = await ensureTopics(kafka, config);
      expect(report.created).toEqual([config.eventsTopic, config.deadLetterTopic]);

      const producer = createProducer(kafka);
      const publisher = new BatchPublisher(producer, {
        topic: config.eventsTopic,
        lingerMs: 0,
        timeoutMs: 20_000,
        logger: quietLogger,
        limits: config.producer,
      });
      const batchId = randomUUID();
      try {
        await publisher.publish({
          value: Buffer.from(encodeTelemetryBatch([{ eventName: 'through_scram', sessionId: 's' }])),
          envelope: {
            batchId,
            projectId: randomUUID(),
            tenantId: randomUUID(),
            receivedAtMs: Date.now(),
            sdkVersion: 't',
            retentionDays: 90,
          },
        });
      } finally {
        await producer.disconnect();
      }
      const [message] = await readTopic(kafka, config.eventsTopic, (read) => read.length > 0);
      expect(message!.headers?.[ENVELOPE_HEADERS.batchId]?.toString()).toBe(batchId);
    },
  );

  it('refuses a wrong password, naming the authentication failure', async () => {
    const config = scramConfig('scram-sha-256', 'not-the-password');
    const producer = createKafka(config, quietLogger).producer();
    const failure = await producer.connect().then(
      () => undefined,
      (error: Error) => error,
    );
    await producer.disconnect().catch(() => undefined);
    expect(failure?.name).toBe('KafkaJSSASLAuthenticationError');
    expect(failure?.message).toMatch(/SASL SCRAM SHA256 authentication failed/i);
  });

  it('refuses a client that brings no credentials (the broker closes the connection)', async () => {
    const config = freshKafkaConfig({ FRAMEDECK_KAFKA_BROKERS: KAFKA_SCRAM.broker });
    const admin = createKafka(config, quietLogger).admin();
    const failure = await admin
      .connect()
      .then(() => admin.listTopics())
      .then(
        () => undefined,
        (error: Error) => error,
      );
    await admin.disconnect().catch(() => undefined);
    expect(failure?.message).toMatch(/closed connection/i);
  });

  it('refuses a broker whose certificate does not chain to a trusted CA (TLS verification is on)', async () => {
    const config = scramConfig('scram-sha-512', KAFKA_SCRAM.password, tlsEnv); // system CAs only
    const admin = createKafka(config, quietLogger).admin();
    const failure = await admin.connect().then(
      () => undefined,
      (error: Error) => error,
    );
    await admin.disconnect().catch(() => undefined);
    expect(failure?.message).toMatch(/unable to verify the first certificate/i);
  });
});
