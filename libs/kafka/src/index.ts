export type { Kafka, Producer, Consumer, Admin, EachBatchPayload, Message, KafkaMessage } from 'kafkajs';
export { createKafka } from './client.js';
export { ensureTopics, topicConfigEntries, type EnsureTopicsReport } from './topics.js';
export {
  compressionType,
  DEAD_LETTER_HEADROOM_BYTES,
  largestValueBytes,
  packRecordBatches,
  recordBatchBound,
  recordBytes,
  type SizedRecord,
} from './record-batch.js';
