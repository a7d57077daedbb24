import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import { ProblemSchema } from '../http/problem.schema.js';
import { DashboardSessionSchema, SignInBody } from './session.schemas.js';
import { SESSION_LIFETIMES } from './dashboard-sessions.js';
import { SIGN_IN_LIMITS } from './user-sign-in.js';

const RULES =
  'Dashboard sign-in. The session is an httpOnly, SameSite=Lax cookie (`fd_session`; `__Host-fd_session`, ' +
  `Secure, on https origins); it ends after ${SESSION_LIFETIMES.idleSeconds / 3600} idle hours and ` +
  `${SESSION_LIFETIMES.absoluteSeconds / 86_400} days after sign-in. With the cookie, every /v1 endpoint ` +
  'that accepts a dashboard session may be called; POST, PUT, PATCH and DELETE also need the header ' +
  'X-CSRF-Token (value: `csrfToken` below), and a cross-origin Origin header is refused (403).';

const ok = (description: string, data: z.ZodType) => ({
  description,
  content: { 'application/json': { schema: z.object({ success: z.literal(true), data }) } },
});
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ProblemSchema } },
});

function op(operation: Omit<ZodOpenApiOperationObject, 'tags'>): ZodOpenApiOperationObject {
  return { ...operation, tags: ['Account'], description: [operation.description, RULES].filter(Boolean).join('\n\n') };
}

export function sessionOpenApiPaths(): ZodOpenApiPathsObject {
  return {
    '/v1/session': {
      post: op({
        operationId: 'signIn',
        summary: 'Sign in to the dashboard (sets the session cookie)',
        description:
          `JSON only. At most ${SIGN_IN_LIMITS.perEmailFromClientIp} attempts per email from one client IP and ` +
          `${SIGN_IN_LIMITS.perClientIp} per client IP in ${SIGN_IN_LIMITS.windowMinutes} minutes (never per email ` +
          'alone, so nobody can lock a user out from another address). Bad email and bad password get the same answer.',
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: SignInBody } } },
        responses: {
          200: ok('Signed in; Set-Cookie carries the session.', DashboardSessionSchema),
          400: problem('Invalid body.'),
          401: problem('Incorrect email or password.'),
          403: problem('Cross-origin request.'),
          415: problem('Body is not application/json.'),
          429: problem('Too many sign-in attempts; see Retry-After.'),
        },
      }),
      get: op({
        operationId: 'getSession',
        summary: 'The signed-in user, tenant, projects and CSRF token',
        security: [{ SessionCookie: [] }],
        responses: { 200: ok('The session.', DashboardSessionSchema), 401: problem('Not signed in.') },
      }),
      delete: op({
        operationId: 'signOut',
        summary: 'Sign out (ends the session server-side, clears the cookie)',
        security: [{ SessionCookie: [] }],
        responses: {
          200: ok('Signed out.', z.object({ signedOut: z.literal(true) })),
          401: problem('Not signed in.'),
          403: problem('Missing or invalid X-CSRF-Token, or cross-origin request.'),
        },
      }),
    },
  };
}
