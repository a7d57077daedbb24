import {
  addressesSection,
  clickhouseSection,
  collectSections,
  kafkaSection,
  loggingSection,
  postgresSection,
  type Env,
} from '@framedeck/config';

export function loadCliConfig(source: Env = process.env) {
  return collectSections({
    postgres: () => postgresSection(source),
    clickhouse: () => clickhouseSection(source),
    kafka: () => kafkaSection(source),
    addresses: () => addressesSection(source),
    logging: () => loggingSection({ FRAMEDECK_LOG_LEVEL: 'warn', ...source }),
  });
}
export type CliConfig = ReturnType<typeof loadCliConfig>;
