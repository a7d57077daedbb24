import { Kafka, logLevel, type KafkaConfig as KafkaJsConfig, type LogEntry } from 'kafkajs';
import type { KafkaConfig } from '@framedeck/config';
import type { Logger } from '@framedeck/logging';

export type { Kafka, Producer, Consumer, Admin, EachBatchPayload, Message } from 'kafkajs';

/** Routes KafkaJS's own log lines into our structured logger. */
function logCreatorFor(logger: Logger): KafkaJsConfig['logCreator'] {
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, ...extra } = log;
      const child = { component: 'kafkajs', ...extra };
      if (level === logLevel.ERROR) logger.error(child, message);
      else if (level === logLevel.WARN) logger.warn(child, message);
      else if (level === logLevel.INFO) logger.debug(child, message);
    };
}

export function createKafka(config: KafkaConfig, logger: Logger, clientIdSuffix = ''): Kafka {
  return new Kafka({
    clientId: config.clientId + clientIdSuffix,
    brokers: config.brokers,
    logCreator: logCreatorFor(logger),
    logLevel: logLevel.INFO,
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    // Callers decide how long to keep trying; the client itself gives up after ~10 s.
    retry: { initialRetryTime: 200, retries: 6, maxRetryTime: 5_000 },
  });
}

/**
 * Creates the topics named in the config with their partition counts when missing, and adds
 * partitions when the config asks for more than exist (Kafka cannot remove partitions).
 */
export async function ensureTopics(kafka: Kafka, config: KafkaConfig): Promise<{ created: string[] }> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const wanted = [
      { topic: config.eventsTopic, numPartitions: config.eventsPartitions },
      { topic: config.deadLetterTopic, numPartitions: 1 },
    ];
    const existing = new Set(await admin.listTopics());
    const missing = wanted.filter((t) => !existing.has(t.topic));
    if (missing.length > 0) {
      await admin.createTopics({
        topics: missing.map((t) => ({ ...t, replicationFactor: 1 })),
        waitForLeaders: true,
      });
    }
    const metadata = await admin.fetchTopicMetadata({ topics: wanted.map((t) => t.topic) });
    const grow = wanted.filter((t) => {
      const found = metadata.topics.find((m) => m.name === t.topic);
      return found !== undefined && found.partitions.length < t.numPartitions;
    });
    if (grow.length > 0) {
      await admin.createPartitions({ topicPartitions: grow.map((t) => ({ topic: t.topic, count: t.numPartitions })) });
    }
    return { created: missing.map((t) => t.topic) };
  } finally {
    await admin.disconnect();
  }
}
