import { parseArgs } from 'node:util';
import { ConfigError } from '@framedeck/config';
import { createLogger } from '@framedeck/logging';
import { bootstrap, createProject, parsePlan, UsageError } from './commands/accounts.command.js';
import { parseLimit, parseSince, replayDeadLetters } from './commands/dlq-replay.command.js';
import { migrateAll } from './commands/migrate.command.js';
import { parseSimulateOptions, simulate } from './commands/simulate.command.js';
import { CI_GATE_OPTIONS, CI_GATE_USAGE, runCiGateCommand } from './commands/ci-gate.commands.js';
import { loadCliConfig } from './config.js';

const USAGE = `Usage: framedeck <command> [options]

Commands:
  migrate [--json]                                  apply Postgres and ClickHouse migrations, create Kafka topics
  bootstrap [--plan free|pro|enterprise] [--json]   create a tenant, a user, a project and its API keys
  project create --tenant <id> --name <name> [--json]
                                                    add a project (with an ingest and a full key) to a tenant
  simulate --project <id> [--key-file FILE] [--players N] [--minutes M | --days D] [--ci-key-file FILE]
           [--ingest-url URL] [--map-id ID] [--rate EVENTS_PER_S] [--seed S] [--json]
                                                    send simulated gameplay telemetry through the ingest gateway:
                                                    M minutes of N players (default 5, 20), or with --days a live
                                                    game of D days (1-30) with a player base of N (default 300);
                                                    the ingest key comes from --key-file or FRAMEDECK_INGEST_KEY
                                                    (--key <ingestKey> works but shows the key in ps); automated
                                                    runs go with the ci key of --ci-key-file when given
  dlq replay [--since <ISO time|30m|12h|7d>] [--limit N] [--json]
                                                    re-publish dead-lettered batches to the events topic
                                                    (after fixing why they failed; see docs/kafka.md)
${CI_GATE_USAGE}

Configuration comes from FRAMEDECK_* environment variables (see README.md).`;

/** Entry point; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...CI_GATE_OPTIONS,
      json: { type: 'boolean', default: false },
      plan: { type: 'string' },
      tenant: { type: 'string' },
      name: { type: 'string' },
      project: { type: 'string' },
      key: { type: 'string' },
      'key-file': { type: 'string' },
      players: { type: 'string' },
      minutes: { type: 'string' },
      // --days (simulate) is declared once, in CI_GATE_OPTIONS (perf-diff takes it too).
      'ci-key-file': { type: 'string' },
      'ingest-url': { type: 'string' },
      'map-id': { type: 'string' },
      rate: { type: 'string' },
      seed: { type: 'string' },
      since: { type: 'string' },
      limit: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: false,
  });
  const [command, sub] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command || values.help ? 0 : 2;
  }
  try {
    const config = loadCliConfig();
    // Logs (KafkaJS's warnings among them) go to stderr: stdout carries the result, e.g. --json.
    const logger = createLogger('cli', config.logging.level, process.stderr);
    const print = (result: unknown, human: string) => console.log(values.json ? JSON.stringify(result) : human);
    switch (command) {
      case 'migrate': {
        const report = await migrateAll(config, logger);
        print(
          report,
          `postgres: ${report.postgres.applied.length} applied, ${report.postgres.skipped.length} already applied\n` +
            `clickhouse: ${report.clickhouse.applied.length} applied, ${report.clickhouse.skipped.length} already applied\n` +
            `kafka topics created: ${report.kafka.created.join(', ') || 'none (all present)'}; ` +
            `configs updated: ${report.kafka.updated.join(', ') || 'none'}` +
            report.kafka.replicationMismatches
              .map(
                (m) =>
                  `\nWARNING ${m.topic} has ${m.actual} replicas, the configuration asks for ${m.wanted}: reassign its partitions`,
              )
              .join(''),
        );
        return 0;
      }
      case 'bootstrap': {
        const result = await bootstrap(config, { plan: parsePlan(values.plan as string | undefined) });
        print(result, JSON.stringify(result, null, 2));
        return 0;
      }
      case 'project': {
        if (sub !== 'create')
          throw new UsageError('did you mean: framedeck project create --tenant <id> --name <name>');
        if (typeof values.tenant !== 'string' || typeof values.name !== 'string') {
          throw new UsageError('project create needs --tenant <id> and --name <name>');
        }
        const result = await createProject(config, { tenantId: values.tenant, name: values.name });
        print(result, JSON.stringify(result, null, 2));
        return 0;
      }
      case 'dlq': {
        if (sub !== 'replay') throw new UsageError('did you mean: framedeck dlq replay [--since …] [--limit N]');
        const report = await replayDeadLetters(config, logger, {
          since: parseSince(values.since as string | undefined),
          limit: parseLimit(values.limit as string | undefined),
        });
        const reasons = Object.entries(report.reasons).map(([reason, n]) => `  ${n} × ${reason}`);
        print(
          report,
          [
            `replayed ${report.replayed} dead-lettered message(s), skipped ${report.skipped} older ones`,
            ...reasons,
          ].join('\n'),
        );
        return 0;
      }
      case 'simulate': {
        const report = await simulate(parseSimulateOptions(values, config));
        print(report, `simulated ${report.events} events in ${report.batches} batches (${report.seconds} s)`);
        return 0;
      }
      case 'perf-diff':
      case 'run-profile-test':
        return await runCiGateCommand(command, values, config, {
          out: (text) => console.log(text),
          err: (line) => console.error(line),
        });
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`framedeck: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      console.error(`framedeck: ${error.message}`);
      return 78; // EX_CONFIG
    }
    console.error(`framedeck: ${(error as Error).message}`);
    return 1;
  }
}
