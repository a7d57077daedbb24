import { z } from 'zod';
import { MIN_SAMPLES, queryWorstAreas, WORST_AREAS_LIMIT, WorstAreaSchema } from '@framedeck/analytics';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';
import { intInRange } from './analytics.schemas.js';
import { heatmapView, HeatmapViewParams } from './heatmap.route.js';

export const worstAreasRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/heatmap/worst-areas',
  operationId: 'getWorstAreas',
  summary: 'The slowest cells of a map, with their platform mix',
  description:
    'Cells of the Performance-mode heatmap with the same parameters (map, cellSize, days, platform, buildId, source, ' +
    'zMin, zMax) that have at least minSamples frame samples (frame time above 0), ranked by p95 frame time, worst ' +
    'first; ties by p99 frame time (higher first), then by samples (more first), then by position (y, then x). Each ' +
    'carries its frame samples per platform, so a slow cell only one platform plays reads as such. A mapId with no ' +
    'map is a 404.',
  tag: 'Analytics',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: {
    params: ProjectPathParams,
    query: z.strictObject({
      ...HeatmapViewParams,
      minSamples: intInRange(
        MIN_SAMPLES.min,
        MIN_SAMPLES.max,
        MIN_SAMPLES.default,
        'Cells with fewer frame samples are left out (too few to rank; the builds comparison’s default too).',
      ),
      limit: intInRange(1, WORST_AREAS_LIMIT.max, WORST_AREAS_LIMIT.default, 'Maximum number of cells.'),
    }),
  },
  response: { description: 'The worst cells, worst first.', data: z.array(WorstAreaSchema) },
  handler: async ({ projectId, query, services }) => {
    return queryWorstAreas(services.clickhouse, {
      ...(await heatmapView(services, projectId, query)),
      minSamples: query.minSamples,
      limit: query.limit,
    });
  },
});
