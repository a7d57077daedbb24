import kafkajs, { type Admin, type Kafka } from 'kafkajs';
import type { KafkaConfig } from '@framedeck/config';

// NOTE: kafkajs is CommonJS; Node's ESM loader finds only some of its names, not this enum.
export const { ConfigResourceTypes } = kafkajs;

/**
 * The settings FrameDeck's topics carry (events and dead letters alike: a dead-letter topic
 * smaller than its source could not hold a bad day's worth of it). `max.message.bytes` is set
 * per topic so the producer's cap and the topic's limit are decided in one place, whatever
 * the broker's default.
 */
export function topicConfigEntries(topics: KafkaConfig['topics']): { name: string; value: string }[] {
  return [
    { name: 'min.insync.replicas', value: String(topics.minInsyncReplicas) },
    { name: 'retention.ms', value: String(topics.retentionMs) },
    { name: 'retention.bytes', value: String(topics.retentionBytes) },
    { name: 'max.message.bytes', value: String(topics.maxMessageBytes) },
  ];
}

export type EnsureTopicsReport = {
  created: string[];
  /** Existing topics whose configs were set to the configured ones. */
  updated: string[];
  /** Kafka cannot change a replication factor in place: a reassignment is the operator's job. */
  replicationMismatches: { topic: string; actual: number; wanted: number }[];
};

/**
 * Brings the events and dead-letter topics to the configuration: creates what is missing
 * (partitions, replication factor, configs), sets the configs of existing topics, and adds
 * partitions when the config asks for more than exist (Kafka cannot remove partitions).
 */
export async function ensureTopics(kafka: Kafka, config: KafkaConfig): Promise<EnsureTopicsReport> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const wanted = [config.eventsTopic, config.deadLetterTopic];
    const configEntries = topicConfigEntries(config.topics);
    const existing = new Set(await admin.listTopics());
    const missing = wanted.filter((topic) => !existing.has(topic));
    if (missing.length > 0) {
      await admin.createTopics({
        topics: missing.map((topic) => ({
          topic,
          numPartitions: config.eventsPartitions,
          replicationFactor: config.topics.replicationFactor,
          configEntries,
        })),
        // KafkaJS's own wait gives up on the first broker that has not heard of the new topic yet
        // ("This server does not host this topic-partition", measured on a fresh 3-broker KRaft
        // cluster): waitUntilTopicsReady waits for that instead.
        waitForLeaders: false,
      });
      await waitUntilTopicsReady(
        admin,
        missing,
        Math.min(config.topics.minInsyncReplicas, config.topics.replicationFactor),
      );
    }
    const updated = await alignConfigs(
      admin,
      wanted.filter((topic) => existing.has(topic)),
      configEntries,
    );
    const metadata = await admin.fetchTopicMetadata({ topics: wanted });
    const grow = metadata.topics.filter((t) => t.partitions.length < config.eventsPartitions);
    if (grow.length > 0) {
      await admin.createPartitions({
        topicPartitions: grow.map((t) => ({ topic: t.name, count: config.eventsPartitions })),
      });
    }
    const replicationMismatches = metadata.topics
      .map((t) => ({ topic: t.name, actual: t.partitions[0]?.replicas.length ?? 0 }))
      .filter((t) => t.actual !== config.topics.replicationFactor)
      .map((t) => ({ ...t, wanted: config.topics.replicationFactor }));
    return { created: missing, updated, replicationMismatches };
  } finally {
    await admin.disconnect();
  }
}

type TopicMetadata = Awaited<ReturnType<Admin['fetchTopicMetadata']>>['topics'];

/** Every partition of every topic has a leader and at least `minInSync` replicas in sync. */
export function topicsReady(topics: TopicMetadata, wanted: readonly string[], minInSync: number): boolean {
  return wanted.every((name) => {
    const topic = topics.find((t) => t.name === name);
    return (
      topic !== undefined &&
      topic.partitions.length > 0 &&
      topic.partitions.every((p) => p.leader >= 0 && p.isr.length >= minInSync)
    );
  });
}

/** How long a new topic may take to reach every broker's metadata before the start gives up. */
const TOPIC_READY_TIMEOUT_MS = 60_000;
/** Answers in a row that must find the topics ready: each may come from another broker. */
const TOPIC_READY_CONFIRMATIONS = 3;

/**
 * Waits until the brokers agree the new topics are ready (leaders elected, `minInSync` replicas
 * in sync), so the first produce to them can meet `min.insync.replicas`. A broker that has not
 * yet applied the controller's metadata answers UNKNOWN_TOPIC_OR_PARTITION or
 * LEADER_NOT_AVAILABLE: retriable errors, waited out here up to TOPIC_READY_TIMEOUT_MS.
 */
async function waitUntilTopicsReady(admin: Admin, topics: readonly string[], minInSync: number): Promise<void> {
  const deadline = Date.now() + TOPIC_READY_TIMEOUT_MS;
  let confirmations = 0;
  for (;;) {
    try {
      const metadata = await admin.fetchTopicMetadata({ topics: [...topics] });
      confirmations = topicsReady(metadata.topics, topics, minInSync) ? confirmations + 1 : 0;
      if (confirmations >= TOPIC_READY_CONFIRMATIONS) return;
    } catch (error) {
      if (!(error as { retriable?: boolean }).retriable) throw error;
      confirmations = 0;
    }
    if (Date.now() > deadline)
      throw new Error(`topics ${topics.join(', ')} not ready after ${TOPIC_READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Sets the configured entries on the topics whose values differ; returns those topics. */
async function alignConfigs(
  admin: Admin,
  topics: string[],
  entries: { name: string; value: string }[],
): Promise<string[]> {
  if (topics.length === 0) return [];
  const described = await admin.describeConfigs({
    includeSynonyms: false,
    resources: topics.map((name) => ({
      type: ConfigResourceTypes.TOPIC,
      name,
      configNames: entries.map((e) => e.name),
    })),
  });
  const differing = described.resources
    .filter((resource) =>
      entries.some((e) => resource.configEntries.find((c) => c.configName === e.name)?.configValue !== e.value),
    )
    .map((resource) => resource.resourceName);
  if (differing.length > 0) {
    // NOTE: AlterConfigs replaces a topic's whole set of overrides; these topics are ours and
    // carry only these, so nothing set by hand elsewhere is expected to be lost.
    await admin.alterConfigs({
      validateOnly: false,
      resources: differing.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configEntries: entries })),
    });
  }
  return differing;
}
