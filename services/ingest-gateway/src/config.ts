import {
  collectSections,
  kafkaSection,
  listenSection,
  loggingSection,
  postgresSection,
  redisSection,
  type Env,
} from '@framedeck/config';

export function loadGatewayConfig(source: Env = process.env) {
  return collectSections({
    listen: () => listenSection(source, 'FRAMEDECK_INGEST_PORT', 8081),
    kafka: () => kafkaSection(source),
    postgres: () => postgresSection(source),
    redis: () => redisSection(source),
    logging: () => loggingSection(source),
  });
}
export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
