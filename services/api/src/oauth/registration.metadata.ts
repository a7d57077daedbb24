import express, { type RequestHandler } from 'express';
import { OAUTH_GRANTABLE_SCOPES } from '@framedeck/auth';
import { resolveRegisteredScope } from './scope.policy.js';

/** Where a registration's `scope` is kept in the client's metadata (the library's own `scope` is for OpenID scopes). */
export const REGISTERED_SCOPE = 'registered_scope';

/** The members of a registration answer: those of the OAuthClient schema in the OpenAPI document. */
const ANSWER_MEMBERS = [
  'client_id',
  'client_id_issued_at',
  'client_name',
  'redirect_uris',
  'grant_types',
  'response_types',
  'token_endpoint_auth_method',
  'software_id',
  'software_version',
] as const;

/**
 * Dynamic registration, before the library sees it: the request's `scope` must hold only
 * scopes_supported values (else 400 invalid_client_metadata, RFC 7591 §3.2.2), and is passed on
 * as `registered_scope`, which the library stores and the authorization request enforces.
 */
export function registrationScope(): RequestHandler {
  const json = express.json({ limit: '56kb' });
  const refuse = (res: Parameters<RequestHandler>[1], error: string, description: string) =>
    void res.status(400).set('Cache-Control', 'no-store').json({ error, error_description: description });
  return (req, res, next) => {
    json(req, res, (parseError?: unknown) => {
      if (parseError) return refuse(res, 'invalid_request', 'The registration body is not valid JSON.');
      const body = req.body as Record<string, unknown> | undefined;
      if (!body || typeof body !== 'object' || Array.isArray(body)) return next();
      delete body[REGISTERED_SCOPE];
      if (body.scope !== undefined) {
        const scope = resolveRegisteredScope(body.scope);
        if (!scope.ok) return refuse(res, 'invalid_client_metadata', scope.problem);
        body[REGISTERED_SCOPE] = scope.scopes.join(' ');
        delete body.scope;
      }
      next();
    });
  };
}

/**
 * The registration answer: the client's metadata as the OpenAPI document describes it. The
 * library adds OpenID Connect members (application_type, subject_type, id_token_signed_response_alg,
 * require_auth_time, …) that mean nothing here; `scope` is the scopes the client may request.
 */
export function registrationAnswer(registered: Record<string, unknown>): Record<string, unknown> {
  const answer: Record<string, unknown> = {};
  for (const member of ANSWER_MEMBERS) if (registered[member] !== undefined) answer[member] = registered[member];
  answer.scope = (registered[REGISTERED_SCOPE] as string | undefined) ?? OAUTH_GRANTABLE_SCOPES.join(' ');
  return answer;
}
