import { z } from 'zod';
import { problems } from '@framedeck/problem';
import type { Principal } from '../http/principal.js';
import { defineRoute, type RouteDefinition } from '../http/route.js';
import { AuthorizedAppSchema } from './authorized-app.schema.js';
import type { OAuthGrants } from './oauth-grants.service.js';

const ClientIdParams = z.object({ clientId: z.string().min(1).max(128) });

/** Routes of the dashboard settings page "Authorized apps" (dashboard session only). */
export function authorizedAppsRoutes(grants: OAuthGrants): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/account/authorized-apps',
      operationId: 'listAuthorizedApps',
      summary: 'OAuth apps the signed-in user has authorized',
      description: 'Newest consent first. Apps whose grant expired or was revoked are not listed.',
      tag: 'Account',
      auth: { scope: null, credentials: 'session' },
      response: { description: 'The authorized apps.', data: z.array(AuthorizedAppSchema) },
      handler: async ({ principal }) => grants.listAuthorizedApps(dashboardUser(principal)),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/account/authorized-apps/{clientId}',
      operationId: 'revokeAuthorizedApp',
      summary: 'Revoke an OAuth app',
      description:
        'Revokes the grant and, at once, every access token, refresh token and unused authorization ' +
        'code issued to the app for this user. The app must ask for consent again.',
      tag: 'Account',
      auth: { scope: null, credentials: 'session' },
      request: { params: ClientIdParams },
      errors: [404],
      response: { description: 'Revoked.', data: z.object({ clientId: z.string(), revoked: z.literal(true) }) },
      handler: async ({ principal, params }) => {
        if (!(await grants.revokeApp(dashboardUser(principal).id, params.clientId))) {
          throw problems.notFound('No authorized app with this client id.');
        }
        return { clientId: params.clientId, revoked: true as const };
      },
    }),
  ];
}

function dashboardUser(principal: Principal): { id: string; tenantId: string } {
  const credential = principal.credential;
  if (credential.type !== 'session') throw new Error('guaranteed by auth.credentials: session');
  return { id: credential.userId, tenantId: principal.tenantId };
}
