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
    // `framedeck simulate` takes its ingest key from here (or --key-file) rather than the command
    // line, where every user of the machine can read it (ps, /proc/<pid>/cmdline).
    simulate: () => ({ ingestKey: source.FRAMEDECK_INGEST_KEY?.trim() || undefined }),
  });
}
export type CliConfig = ReturnType<typeof loadCliConfig>;
