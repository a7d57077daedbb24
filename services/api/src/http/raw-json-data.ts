import type { Response } from 'express';

const OPEN = Buffer.from('{"success":true,"data":');
const CLOSE = Buffer.from('}');

/**
 * Answers 200 with the registry's envelope, `{"success":true,"data":…}`, around data that is
 * already JSON (one value, e.g. an array built by the query library), without parsing it: for
 * answers too large to parse and serialise again (a 40,000-cell heatmap is ~9 MB).
 */
export function sendRawJsonData(res: Response, data: Buffer): void {
  res
    .status(200)
    .type('application/json')
    .end(Buffer.concat([OPEN, data, CLOSE]));
}
