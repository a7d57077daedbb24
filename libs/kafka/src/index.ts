export type { Kafka, Producer, Consumer, Admin, EachBatchPayload, Message, KafkaMessage } from 'kafkajs';
export { createKafka, createProducer } from './client.js';
export {
  ConfigResourceTypes,
  ensureTopics,
  topicConfigEntries,
  topicsReady,
  type EnsureTopicsReport,
} from './topics.js';
export {
  CompressionTypes,
  compressionType,
  DEAD_LETTER_HEADROOM_BYTES,
  largestValueBytes,
  packRecordBatches,
  recordBatchBound,
  recordBytes,
  type SizedRecord,
} from './record-batch.js';
export { DEAD_LETTER_HEADERS, deadLetterMarks, originalHeaders } from './dead-letter.js';
