import { pino, type Logger, type LoggerOptions } from 'pino';
import { currentRequestId } from './request-context.js';

export type { Logger } from 'pino';
export { currentRequestId, runWithRequestId } from './request-context.js';

/**
 * One structured JSON logger per process. `service` is on every line so that logs of all
 * services can be merged into one stream and still be told apart; `requestId` is on every line
 * written while a request is served (runWithRequestId), so one request's lines can be found.
 * NOTE: secrets must never reach a log line: the redact list covers the headers that carry them.
 */
export function createLogger(
  service: string,
  level: LoggerOptions['level'] = 'info',
  destination?: pino.DestinationStream,
): Logger {
  const options: LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => {
      const requestId = currentRequestId();
      return requestId === undefined ? {} : { requestId };
    },
    redact: {
      paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie', '*.password', '*.apiKey'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
