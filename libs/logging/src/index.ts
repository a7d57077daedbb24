import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * One structured JSON logger per process. `service` is on every line so that logs of all
 * services can be merged into one stream and still be told apart.
 * NOTE: secrets must never reach a log line: the redact list covers the headers that carry them.
 */
export function createLogger(service: string, level: LoggerOptions['level'] = 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie', '*.password', '*.apiKey'],
      censor: '[redacted]',
    },
  });
}
