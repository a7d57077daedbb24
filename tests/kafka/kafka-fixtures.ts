import { randomUUID } from 'node:crypto';
import { kafkaSection, type KafkaConfig } from '@framedeck/config';
import { createKafka, type Kafka, type KafkaMessage } from '@framedeck/kafka';
import { createLogger } from '@framedeck/logging';
import { TEST_ENV } from '../support/config.js';
import { waitFor } from '../support/wait.js';

/** Shared by the Kafka tests: topics of their own, configs built as the services build them. */

export const quietLogger = createLogger('kafka-test', 'silent');

/** A Kafka config for the test environment plus `env`, with fresh topic names (nothing shared with other tests). */
export function freshKafkaConfig(env: Record<string, string> = {}): KafkaConfig {
  const id = randomUUID().slice(0, 8);
  return kafkaSection({
    ...TEST_ENV,
    FRAMEDECK_KAFKA_EVENTS_TOPIC: `framedeck-test.kafka-${id}.v1`,
    FRAMEDECK_KAFKA_DEAD_LETTER_TOPIC: `framedeck-test.kafka-${id}.dead-letter.v1`,
    FRAMEDECK_KAFKA_CONSUMER_GROUP: `framedeck-test-kafka-${id}`,
    ...env,
  });
}

/** The environment variables of such a config, for service processes and the CLI. */
export function kafkaEnv(config: KafkaConfig): Record<string, string> {
  return {
    FRAMEDECK_KAFKA_EVENTS_TOPIC: config.eventsTopic,
    FRAMEDECK_KAFKA_DEAD_LETTER_TOPIC: config.deadLetterTopic,
    FRAMEDECK_KAFKA_CONSUMER_GROUP: config.consumerGroup,
  };
}

/** Reads a topic from the beginning until `until` holds for what was read (or times out). */
export async function readTopic(
  kafka: Kafka,
  topic: string,
  until: (messages: KafkaMessage[]) => boolean,
  timeoutMs = 30_000,
): Promise<KafkaMessage[]> {
  const consumer = kafka.consumer({ groupId: `kafka-test-reader-${randomUUID()}` });
  const messages: KafkaMessage[] = [];
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        messages.push(message);
      },
    });
    await waitFor(() => until(messages), { timeoutMs, what: `messages on ${topic}` });
    return messages;
  } finally {
    await consumer.disconnect();
  }
}

/** Deletes the topics a test created (best effort: a leftover topic is only clutter). */
export async function deleteTopics(config: KafkaConfig): Promise<void> {
  const admin = createKafka(config, quietLogger).admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: [config.eventsTopic, config.deadLetterTopic] }).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}
