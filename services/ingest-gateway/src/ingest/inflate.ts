import { gunzip } from 'node:zlib';
import { IngestError } from '../http/ingest-error.js';

/**
 * Inflates a gzip body with a hard cap on the output: zlib stops at `maxBytes` and fails with
 * ERR_BUFFER_TOO_LARGE, so a gzip bomb costs at most `maxBytes` of memory (413), and a corrupt
 * stream is a 400. Runs on libuv's thread pool, off the event loop.
 */
export function inflateBody(body: Buffer, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    gunzip(body, { maxOutputLength: maxBytes }, (error, inflated) => {
      if (!error) return resolve(inflated);
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        return reject(new IngestError(413, `Inflated body exceeds ${maxBytes} bytes.`));
      }
      reject(new IngestError(400, 'Body is not a valid gzip stream.'));
    });
  });
}
