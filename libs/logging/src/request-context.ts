import { AsyncLocalStorage } from 'node:async_hooks';

type RequestContext = { requestId: string };

const context = new AsyncLocalStorage<RequestContext>();

/**
 * Runs `work` (and everything it starts: promises, timers, callbacks) as part of the request
 * `requestId`; every line the process logger writes meanwhile carries it (see createLogger).
 * NOTE: an AsyncLocalStorage rather than a child logger per request, so libraries that hold the
 * process logger (sinks, publishers, repositories) need no logger handed down to tag their lines.
 */
export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return context.run({ requestId }, work);
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}
