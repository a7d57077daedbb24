import type http from 'node:http';
import { IngestError } from './ingest-error.js';

/**
 * Reads exactly `declaredLength` bytes of a request body into one buffer.
 * The caller has already refused a missing or oversized Content-Length, so the buffer is
 * bounded up front; Node's parser never delivers more than Content-Length bytes, and a sender
 * that stops short is answered 400 after `timeoutMs` instead of holding a socket forever.
 */
export function readBody(req: http.IncomingMessage, declaredLength: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const body = Buffer.allocUnsafe(declaredLength);
    let received = 0;
    const finish = (error?: IngestError) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('aborted', onAborted).off('error', onAborted);
      if (error) reject(error);
      else resolve(body);
    };
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > declaredLength) {
        // Defensive: cannot happen with a Content-Length-framed body.
        req.pause();
        finish(new IngestError(413, `Request body exceeds its Content-Length of ${declaredLength} bytes.`));
        return;
      }
      chunk.copy(body, received);
      received += chunk.length;
    };
    const onEnd = () =>
      received === declaredLength
        ? finish()
        : finish(new IngestError(400, 'Request body does not match Content-Length.'));
    const onAborted = () => finish(new IngestError(400, 'Request body ended before Content-Length bytes.'));
    const timer = setTimeout(
      () => finish(new IngestError(400, 'Request body shorter than Content-Length (timed out waiting for the rest).')),
      timeoutMs,
    );
    req.on('data', onData).on('end', onEnd).on('aborted', onAborted).on('error', onAborted);
  });
}
