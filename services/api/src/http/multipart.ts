import type { Request } from 'express';
import busboy from 'busboy';
import { problems } from '@framedeck/problem';

export type MultipartForm = {
  fields: Record<string, string>;
  file?: { field: string; filename: string; bytes: Buffer };
};

/** Limits beyond the file's own: a form has a few short text fields. */
const FIELD_LIMITS = { fields: 20, fieldSize: 4096, parts: 22, files: 1 } as const;

/**
 * Reads a multipart/form-data request with at most one file of at most `maxFileBytes`.
 * 415 for another media type, 413 for a larger file, 400 for a malformed body. The file is
 * buffered (bounded by the cap): images are stored whole anyway.
 */
export function readMultipart(
  req: Request,
  /** fileFields: the names the file may be sent under (the first is the canonical one). */
  options: { maxFileBytes: number; fileFields: readonly [string, ...string[]] },
): Promise<MultipartForm> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(problems.unsupportedMediaType('The request body must be multipart/form-data.'));
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (problem: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.resume(); // drain the rest so the connection can answer
      reject(problem);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { ...FIELD_LIMITS, fileSize: options.maxFileBytes },
      });
    } catch {
      reject(problems.badRequest('Malformed multipart/form-data body.'));
      return;
    }
    const form: MultipartForm = { fields: {} };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(problems.badRequest(`Field ${name} is too long.`));
      form.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (!options.fileFields.includes(name)) {
        stream.resume();
        return fail(problems.badRequest(`Unexpected file field ${name}; send the image as ${options.fileFields[0]}.`));
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(problems.tooLarge(`The ${name} is larger than ${options.maxFileBytes} bytes.`)));
      stream.on('end', () => {
        form.file = { field: name, filename: info.filename ?? '', bytes: Buffer.concat(chunks) };
      });
    });
    parser.on('filesLimit', () => fail(problems.badRequest('Only one file may be sent.')));
    parser.on('fieldsLimit', () => fail(problems.badRequest('Too many form fields.')));
    parser.on('partsLimit', () => fail(problems.badRequest('Too many form parts.')));
    parser.on('error', () => fail(problems.badRequest('Malformed multipart/form-data body.')));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      resolve(form);
    });
    req.pipe(parser);
  });
}
