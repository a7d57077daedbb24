import {
  addressesSection,
  clickhouseSection,
  collectSections,
  listenSection,
  loggingSection,
  postgresSection,
  redisSection,
  type Env,
} from '@framedeck/config';

export function loadApiConfig(source: Env = process.env) {
  return collectSections({
    listen: () => listenSection(source, 'FRAMEDECK_API_PORT', 8080),
    addresses: () => addressesSection(source),
    postgres: () => postgresSection(source),
    redis: () => redisSection(source),
    clickhouse: () => clickhouseSection(source),
    logging: () => loggingSection(source),
  });
}
export type ApiConfig = ReturnType<typeof loadApiConfig>;
