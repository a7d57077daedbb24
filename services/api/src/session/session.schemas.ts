import { z } from 'zod';

export const SignInBody = z
  .object({
    email: z.string().trim().min(1).max(320),
    password: z.string().min(1).max(1024),
  })
  .meta({ id: 'SignIn' });

export const DashboardSessionSchema = z
  .object({
    user: z.object({
      id: z.uuid(),
      email: z.string(),
      tenantId: z.uuid(),
      planId: z.string(),
      scopes: z.array(z.string()).meta({ description: 'What the session may do, on every project of the tenant.' }),
    }),
    tenant: z.object({ id: z.uuid(), name: z.string(), planId: z.string() }),
    projects: z.array(z.object({ id: z.uuid(), name: z.string(), createdAt: z.iso.datetime() })),
    csrfToken: z.string().meta({ description: 'Send it as X-CSRF-Token on every POST, PUT, PATCH and DELETE.' }),
    expiresAt: z.iso
      .datetime()
      .meta({ description: 'Absolute end of the session (it also ends after 12 idle hours).' }),
  })
  .meta({ id: 'DashboardSession' });
export type DashboardSessionView = z.input<typeof DashboardSessionSchema>;
