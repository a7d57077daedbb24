import { z } from 'zod';
import type { Scope } from '@framedeck/auth';
import { defineRoute } from '../http/route.js';

/** Holding any of these scopes unlocks the full metadata (spec: whoami). */
const CONTROL_PLANE_SCOPES: readonly Scope[] = ['analytics:read', 'resources:write', 'data:admin'];

const FullKeyMetadata = z
  .object({
    projectId: z.uuid(),
    projectName: z.string(),
    tenantId: z.uuid(),
    planId: z.string(),
    scopes: z.array(z.string()),
  })
  .meta({ id: 'KeyMetadataFull', description: 'For keys holding analytics:read, resources:write or data:admin.' });

const LimitedKeyMetadata = z
  .object({ projectId: z.uuid(), scopes: z.array(z.string()) })
  .meta({ id: 'KeyMetadataLimited', description: 'For data-plane keys (e.g. events:write only).' });

export const whoamiRoute = defineRoute({
  method: 'get',
  path: '/v1/whoami',
  operationId: 'whoami',
  summary: 'Describe the calling API key',
  description:
    'Validates any active API key, whatever its scopes. Bearer tokens are refused (401). ' +
    'Own quota: 60 requests per hour per tenant, not counted in the plan quota.',
  tag: 'Account',
  auth: { scope: null, credentials: 'apiKey' },
  rateLimit: 'whoami',
  response: { description: 'The key metadata, tiered by scope.', data: z.union([FullKeyMetadata, LimitedKeyMetadata]) },
  handler: async ({ principal }) => {
    const key = principal.credential;
    if (key.type !== 'apiKey') throw new Error('whoami is API-key only'); // guaranteed by auth.credentials
    const scopes = [...principal.scopes];
    if (!scopes.some((s) => CONTROL_PLANE_SCOPES.includes(s))) return { projectId: key.projectId, scopes };
    return {
      projectId: key.projectId,
      projectName: key.projectName,
      tenantId: principal.tenantId,
      planId: key.planId,
      scopes,
    };
  },
});
