import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { Scope } from '@framedeck/auth';
import { problems } from '@framedeck/problem';
import type { Principal } from './principal.js';

/** 403 unless the credential holds `scope`. Runs before validation: no input is looked at. */
export function requireScope(scope: Scope): RequestHandler {
  return (req, _res, next) => {
    if (req.principal!.scopes.includes(scope)) return next();
    const hint =
      req.principal!.credential.type === 'bearer' && scope === 'data:admin'
        ? ' OAuth tokens never hold it: use an API key with the Full preset.'
        : '';
    next(problems.forbidden(`This operation requires the scope ${scope}.${hint}`));
  };
}

/**
 * DECISION: a project the credential cannot access is "not found" (404), whether it exists in
 * another tenant, in the same tenant, or not at all — one body for all three, so ids cannot be
 * probed. (403 would confirm that the id exists.)
 */
export function assertProjectAccess(principal: Principal, projectId: string): string {
  if (!principal.projectIds.includes(projectId)) throw problems.notFound('Project not found.');
  return projectId;
}

const projectIdHeader = z.uuid();

/** X-Project-Id on paths that are not project-scoped: 400 when missing or malformed. */
export function projectIdFromHeader(value: string | undefined): string {
  if (value === undefined || value === '') {
    throw problems.badRequest('The header X-Project-Id (a project UUID) is required on this path.');
  }
  if (!projectIdHeader.safeParse(value).success) throw problems.badRequest('X-Project-Id must be a UUID.');
  return value.toLowerCase();
}
