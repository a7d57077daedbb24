import express, { type RequestHandler } from 'express';
import type { z } from 'zod';
import { problems } from '@framedeck/problem';

const MAX_ISSUES_SHOWN = 5;

/** Parses `value` with `schema`; a failure is a 400 naming each bad field (where: "query" …). */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, MAX_ISSUES_SHOWN).map((issue) => {
    const path = [where, ...issue.path.map(String)].join('.');
    return `${path}: ${issue.message}`;
  });
  const more =
    result.error.issues.length > MAX_ISSUES_SHOWN ? ` (and ${result.error.issues.length - MAX_ISSUES_SHOWN} more)` : '';
  throw problems.badRequest(`Invalid request: ${issues.join('; ')}${more}.`);
}

/**
 * JSON bodies only: a body of another media type is a 415 (express.json alone would silently
 * leave it unparsed); malformed JSON → 400 and over `limitBytes` → 413 via the problem handler.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, type: ['application/json', 'application/*+json'] });
  return (req, res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (hasBody && !req.is(['application/json', 'application/*+json'])) {
      return next(problems.unsupportedMediaType('The request body must be application/json.'));
    }
    parse(req, res, next);
  };
}
