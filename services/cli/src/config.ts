import { z } from 'zod';
import { runContextFromEnv } from '@framedeck/sender';
import {
  addressesSection,
  clickhouseSection,
  collectSections,
  kafkaSection,
  loggingSection,
  postgresSection,
  readEnv,
  type Env,
} from '@framedeck/config';

/** What the commands that call the web API (perf-diff, run-profile-test) need besides its address. */
export function apiClientSection(source: Env) {
  const e = readEnv(
    {
      // X-API-Key of the CLI's API commands (perf-diff, run-profile-test): a key with analytics:read
      // (the read preset). --key-file <file> takes precedence; never on the command line (ps shows it).
      FRAMEDECK_API_KEY: z.string().trim().min(1).optional(),
      // Project of the CLI's API commands (--project takes precedence); when unset, the project
      // of FRAMEDECK_API_KEY (asked with GET /v1/whoami).
      FRAMEDECK_PROJECT_ID: z.uuid().optional(),
    },
    source,
  );
  return { apiKey: e.FRAMEDECK_API_KEY, projectId: e.FRAMEDECK_PROJECT_ID };
}

export function loadCliConfig(source: Env = process.env) {
  return collectSections({
    postgres: () => postgresSection(source),
    clickhouse: () => clickhouseSection(source),
    kafka: () => kafkaSection(source),
    addresses: () => addressesSection(source),
    logging: () => loggingSection({ FRAMEDECK_LOG_LEVEL: 'warn', ...source }),
    // `framedeck simulate` takes its ingest key from here (or --key-file) rather than the command
    // line, where every user of the machine can read it (ps, /proc/<pid>/cmdline).
    // run-profile-test hands it to the command it runs (FRAMEDECK_INGEST_KEY of the run contract).
    simulate: () => ({ ingestKey: source.FRAMEDECK_INGEST_KEY?.trim() || undefined }),
    apiClient: () => apiClientSection(source),
    // The run contract a CI job may already have set (FRAMEDECK_BUILD_ID, …; libs/sender), and
    // the environment run-profile-test hands on, with the contract added, to the command it runs.
    run: () => runContextFromEnv(source),
    childEnvironment: () => ({ ...source }),
  });
}
export type CliConfig = ReturnType<typeof loadCliConfig>;
