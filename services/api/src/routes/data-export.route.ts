import { z } from 'zod';
import { EXPORT_FORMATS } from '@framedeck/analytics';
import { problems } from '@framedeck/problem';
import { EXPORT_RESOURCES, writeProjectExport, type ExportResource } from '../project-data/project-export.js';
import { defineRoute } from '../http/route.js';
import { allowedString } from './analytics.schemas.js';

const ExportQuery = z
  .strictObject({
    format: allowedString(
      EXPORT_FORMATS,
      'ndjson',
      'ndjson (every resource, one JSON object per line) or csv (events only).',
    ),
    from: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'Events with a timestamp at or after this instant (ISO 8601).' }),
    to: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'Events with a timestamp before this instant (ISO 8601).' }),
    include: z
      .string()
      .regex(/^[a-z_]+(,[a-z_]+)*$/)
      .optional()
      .meta({
        description: `Comma-separated resources to export, of ${EXPORT_RESOURCES.join(', ')}. Default: all (ndjson) or events (csv, which holds only events).`,
      }),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), { message: 'from must be before to' });

export const exportDataRoute = defineRoute({
  method: 'get',
  path: '/v1/data/export',
  operationId: 'exportData',
  summary: 'Export the project’s data (streamed)',
  description:
    'Streams the data of the project named by X-Project-Id, in bounded memory whatever its size. NDJSON ' +
    '(application/x-ndjson): a first line {"kind":"export",…}, then one line per map, content entry, alert rule and ' +
    'threshold profile, then one line per event ({"kind":"event", event fields…}; attributes and metrics as parallel ' +
    'key/value arrays; no particular order), and a last line {"kind":"end","events":N}: a download without it is ' +
    'incomplete. CSV (text/csv): the events with a header row. Duplicates from at-least-once delivery are removed ' +
    '(FINAL). from/to filter events only.',
  tag: 'Data',
  auth: { scope: 'data:admin' },
  project: 'header',
  request: { query: ExportQuery },
  response: {
    description: 'The export stream.',
    data: z.never(),
    media: {
      'application/x-ndjson': z.string().meta({ description: 'One JSON object per line.' }),
      'text/csv': z.string().meta({ description: 'Events, with a header row.' }),
    },
  },
  handler: async ({ projectId, query, res, services }) => {
    const include = parseInclude(query.include, query.format);
    const extension = query.format === 'csv' ? 'csv' : 'ndjson';
    res
      .status(200)
      .type(query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson')
      .setHeader('Content-Disposition', `attachment; filename="framedeck-${projectId}.${extension}"`)
      .setHeader('Cache-Control', 'no-store');
    await writeProjectExport(
      services,
      {
        projectId,
        format: query.format,
        include,
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
      },
      res,
    );
  },
});

function parseInclude(raw: string | undefined, format: 'ndjson' | 'csv'): ExportResource[] {
  if (raw === undefined) return format === 'csv' ? ['events'] : [...EXPORT_RESOURCES];
  const names = [...new Set(raw.split(','))];
  const unknown = names.filter((n) => !(EXPORT_RESOURCES as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw problems.badRequest(`Invalid request: query.include: unknown resource ${unknown.join(', ')}.`);
  if (format === 'csv' && names.some((n) => n !== 'events')) {
    throw problems.badRequest(
      'Invalid request: query.include: csv holds events only; use format=ndjson for other resources.',
    );
  }
  return names as ExportResource[];
}
