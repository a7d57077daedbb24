import {
  clickhouseSection,
  collectSections,
  kafkaSection,
  listenSection,
  loggingSection,
  type Env,
} from '@framedeck/config';

export function loadConsumerConfig(source: Env = process.env) {
  return collectSections({
    health: () => listenSection(source, 'FRAMEDECK_CONSUMER_HEALTH_PORT', 8082),
    kafka: () => kafkaSection(source),
    clickhouse: () => clickhouseSection(source),
    logging: () => loggingSection(source),
  });
}
export type ConsumerConfig = ReturnType<typeof loadConsumerConfig>;
