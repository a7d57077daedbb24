import { z } from 'zod';
import { ERROR_CATEGORIES, type ProblemDocument } from '@framedeck/problem';

/** The problem+json body (libs/problem) as a schema, for the OpenAPI document. */
export const ProblemSchema = z
  .object({
    type: z.string().meta({ description: 'Problem type URI; about:blank when no specific type.' }),
    title: z.string().meta({ description: 'Short summary of the HTTP status.' }),
    status: z.int(),
    detail: z.string().meta({ description: 'What went wrong, for a human.' }),
    error_category: z.enum(ERROR_CATEGORIES),
    retryable: z.boolean().meta({ description: 'Whether the same request may succeed later (429, 503).' }),
    retry_after: z.int().min(0).optional().meta({ description: 'Recommended wait in seconds.' }),
    success: z.literal(false),
    error: z.string().meta({ description: 'Same as detail, for clients of the {success, error} shape.' }),
  })
  .strict()
  .meta({ id: 'Problem', description: 'RFC 9457 problem details (application/problem+json).' });

// Keeps the schema and libs/problem's type in step at compile time.
type _Same =
  z.infer<typeof ProblemSchema> extends ProblemDocument
    ? ProblemDocument extends z.infer<typeof ProblemSchema>
      ? true
      : never
    : never;
export const problemSchemaMatches: _Same = true;
