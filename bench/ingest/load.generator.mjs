// Posts pre-encoded gzip bodies to an ingest URL over keep-alive connections, as fast as
// possible or paced to a rate, for a fixed time. Every request gets a fresh Idempotency-Key
// (its batch id), so repeated bodies still become distinct events.
import { randomUUID } from 'node:crypto';
import http from 'node:http';

/**
 * @param {{ url: string, apiKey: string, bodies: { body: Buffer, events: number }[],
 *   seconds: number, concurrency: number, bodiesPerSecond?: number,
 *   onAccepted?: (batchId: string, at: number) => void }} options
 */
export async function runLoad(options) {
  const target = new URL('/v1/events', options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const stats = { requests: 0, accepted: 0, events: 0, statuses: {}, errors: 0 };
  let next = 0;
  let nextSendAt = started;

  const post = (body, batchId) =>
    new Promise((resolve) => {
      const req = http.request(
        target,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/x-protobuf',
            'content-encoding': 'gzip',
            'content-length': body.length,
            'x-api-key': options.apiKey,
            'x-sdk-version': 'framedeck-bench/1',
            'idempotency-key': batchId,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        },
      );
      req.on('error', () => resolve(0));
      req.end(body);
    });

  const worker = async () => {
    while (performance.now() < deadline) {
      if (options.bodiesPerSecond) {
        const slot = nextSendAt;
        nextSendAt += 1000 / options.bodiesPerSecond;
        const wait = slot - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (performance.now() >= deadline) break;
      }
      const item = options.bodies[next++ % options.bodies.length];
      const batchId = randomUUID();
      const status = await post(item.body, batchId);
      stats.requests++;
      stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
      if (status === 202) {
        stats.accepted++;
        stats.events += item.events;
        options.onAccepted?.(batchId, performance.now(), item.events);
      } else if (status === 0) stats.errors++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    ...stats,
    seconds: round(seconds),
    requestsPerSecond: Math.round(stats.accepted / seconds),
    eventsPerSecond: Math.round(stats.events / seconds),
  };
}

export const round = (v, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;
