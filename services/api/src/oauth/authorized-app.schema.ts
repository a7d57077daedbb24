import { z } from 'zod';

/** One authorized app as the dashboard settings list it: the route's response and the grants service's result. */
export const AuthorizedAppSchema = z
  .object({
    clientId: z.string(),
    clientName: z.string().nullable().meta({ description: 'The name the app registered (not verified).' }),
    redirectHosts: z.array(z.string()),
    scopes: z.array(z.string()).meta({ description: 'analytics:read and/or resources:write.' }),
    projects: z.array(z.object({ id: z.uuid(), name: z.string() })),
    createdAt: z.iso.datetime().meta({ description: 'When the user consented.' }),
    lastUsedAt: z.iso.datetime().nullable().meta({ description: 'Last API call with its tokens (±1 minute).' }),
  })
  .meta({ id: 'AuthorizedApp' });

export type AuthorizedAppView = z.input<typeof AuthorizedAppSchema>;
