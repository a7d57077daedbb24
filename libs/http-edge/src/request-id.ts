import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { runWithRequestId } from '@framedeck/logging';
import { peerIsTrusted, type ProxyTrust } from './trusted-proxies.js';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An incoming id is kept only when it is short and plain (letters, digits and `.-_:=+/`: UUIDs,
 * hex ids of nginx and load balancers, W3C trace ids), so it can be neither a log-injection
 * vector nor a way to make every log line kilobytes long.
 */
const WELL_FORMED = /^[A-Za-z0-9._:=+/-]{1,128}$/;

/**
 * The request's id: the X-Request-Id a trusted proxy forwarded (so one id follows the request
 * from the load balancer's logs into ours), else a new UUID. An id sent by anyone else is
 * replaced: a client could otherwise make its requests share ids with someone else's.
 */
export function requestIdFor(req: http.IncomingMessage, trust: ProxyTrust): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  if (typeof incoming === 'string' && WELL_FORMED.test(incoming) && peerIsTrusted(req, trust)) return incoming;
  return randomUUID();
}

/**
 * Gives the request its id: on the response as X-Request-Id (set first, so every answer has
 * it, errors included) and on every log line written while `work` and what it starts run.
 */
export function withRequestId<T>(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  trust: ProxyTrust,
  work: () => T,
): T {
  const requestId = requestIdFor(req, trust);
  res.setHeader(REQUEST_ID_HEADER, requestId);
  return runWithRequestId(requestId, work);
}
