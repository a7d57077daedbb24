import { z } from 'zod';

/** Path parameters of every /v1/projects/{id}/… route (a malformed UUID is a 400). */
export const ProjectPathParams = z.object({
  id: z.uuid().meta({ description: 'Project UUID.' }),
});
