import { readFileSync } from 'node:fs';
import {
  Kafka,
  logLevel,
  Partitioners,
  type KafkaConfig as KafkaJsConfig,
  type LogEntry,
  type Producer,
  type SASLOptions,
} from 'kafkajs';
import type { KafkaConfig } from '@framedeck/config';
import type { Logger } from '@framedeck/logging';

/** Routes KafkaJS's own log lines into our structured logger. */
function logCreatorFor(logger: Logger): KafkaJsConfig['logCreator'] {
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, ...extra } = log;
      const child = { component: 'kafkajs', ...extra };
      if (level === logLevel.ERROR) logger.error(child, message);
      else if (level === logLevel.WARN) logger.warn(child, message);
      else if (level === logLevel.INFO) logger.debug(child, message);
    };
}

/** The client every FrameDeck process uses: brokers, SASL and TLS all come from the config. */
export function createKafka(config: KafkaConfig, logger: Logger, clientIdSuffix = ''): Kafka {
  return new Kafka({
    clientId: config.clientId + clientIdSuffix,
    brokers: [...config.brokers],
    ...(config.sasl ? { sasl: saslOptions(config.sasl) } : {}),
    ...(config.tls ? { ssl: tlsOptions(config.tls) } : {}),
    logCreator: logCreatorFor(logger),
    logLevel: logLevel.INFO,
    connectionTimeout: 3_000,
    // SCRAM takes two round trips plus the server's key derivation (4096 iterations).
    authenticationTimeout: 10_000,
    requestTimeout: 30_000,
    // Callers decide how long to keep trying; the client itself gives up after ~10 s.
    retry: { initialRetryTime: 200, retries: 6, maxRetryTime: 5_000 },
  });
}

/**
 * A producer as every FrameDeck process needs one: topics are never created by a typo, and
 * keys are placed by KafkaJS's default partitioner (murmur2, as the Java client places them),
 * named here so a key lands on the same partition whichever client wrote it.
 */
export function createProducer(kafka: Kafka): Producer {
  return kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
}

function saslOptions(sasl: NonNullable<KafkaConfig['sasl']>): SASLOptions {
  const { username, password } = sasl;
  return { mechanism: sasl.mechanism, username, password };
}

/** Certificate files are read once, at client creation: a missing file fails start-up, naming it. */
function tlsOptions(tls: NonNullable<KafkaConfig['tls']>) {
  const read = (file: string | null) => (file === null ? undefined : readFileSync(file, 'utf8'));
  return {
    // Hostname and chain are always verified; a private CA is trusted by naming its file.
    rejectUnauthorized: true,
    ca: read(tls.caFile),
    cert: read(tls.certFile),
    key: read(tls.keyFile),
  };
}
