import { z } from 'zod';
import { BYTES_PER_MB, HEATMAP_CELL_SIZES, HEATMAP_DAYS, HEATMAP_DEFAULTS, queryHeatmap } from '@framedeck/analytics';
import { getMap } from '@framedeck/postgres';
import { problems } from '@framedeck/problem';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';
import { allowedInt, analyticsDays, EventNameParam } from './analytics.schemas.js';

const HeatmapQuery = z.strictObject({
  mapId: z.string().min(1).max(255).meta({ description: 'User-specified map identifier, at most 255 characters.' }),
  cellSize: allowedInt(HEATMAP_CELL_SIZES, HEATMAP_DEFAULTS.cellSize, 'Grid cell size in world units.'),
  days: analyticsDays(HEATMAP_DAYS, HEATMAP_DEFAULTS.days),
  eventName: EventNameParam.optional().meta({
    description:
      'Events mode: only events of this name. Omit it for Performance mode (every event with a frame sample).',
  }),
  buildId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .meta({ description: 'Extension: only events of this build_id (see GET …/builds). Omit it for every build.' }),
});

export const HeatmapCellSchema = z
  .object({
    x: z.number().meta({
      description: 'Cell centre X in world space: worldMinX + (floor((x − worldMinX) / cellSize) + 0.5) × cellSize.',
    }),
    y: z.number().meta({ description: 'Cell centre Y in world space.' }),
    weight: z
      .number()
      .min(0)
      .max(1)
      .meta({
        description:
          '0..1 for drawing. Events mode: event_count / the largest event_count. Performance mode: avg_frame_time / ' +
          'the largest avg_frame_time (hot = slow), falling back to event counts when no cell has a frame time.',
      }),
    event_count: z.int().meta({ description: 'Events in the cell.' }),
    avg_fps: z.number().meta({
      description: 'Mean of fps over events with fps > 0 (0 = not collected), rounded to 0.001; 0 when none.',
    }),
    avg_frame_time: z.number().meta({
      description: 'Mean frame time in ms over events with frame_time_ms > 0, rounded to 0.001; 0 when none.',
    }),
    avg_memory: z.number().meta({
      description: `Mean memory in MB (1 MB = ${BYTES_PER_MB} bytes, i.e. MiB) over events with memory_used_bytes > 0, rounded to 0.001; 0 when none.`,
    }),
    avg_gpu_time: z
      .number()
      .nullable()
      .meta({ description: 'Mean GPU time in ms over events with gpu_time_ms > 0, rounded to 0.001; null when none.' }),
    p95_frame_time: z
      .number()
      .nullable()
      .meta({
        description:
          'Extension: 95th percentile of frame time in ms over the cell’s frame samples (nearest rank; 0.1 ms steps ' +
          'below 102.4 ms, coarser above, capped at 3000 ms); null when the cell has none.',
      }),
  })
  .meta({ id: 'HeatmapCell' });

export const heatmapRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/heatmap',
  operationId: 'getHeatmap',
  summary: 'Performance or event heatmap of a map',
  description:
    'Non-empty cells of a grid of cellSize world units over the map’s bounds, for events of the last `days` × 24 h ' +
    'that have a position inside the bounds (and inside worldMinZ..worldMaxZ when the map has them). A point on ' +
    'the max edge belongs to the last cell. Performance mode (no eventName) reads every event with a frame sample ' +
    '(fps or frame time above 0); Events mode reads the events of that name. Cells are ordered by y, then x. ' +
    'Unknown query parameters are a 400; a mapId with no map is a 404.',
  tag: 'Analytics',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: { params: ProjectPathParams, query: HeatmapQuery },
  response: { description: 'Heatmap cells.', data: z.array(HeatmapCellSchema) },
  handler: async ({ projectId, query, services }) => {
    const map = await getMap(services.pool, projectId, query.mapId);
    if (!map) throw problems.notFound('Map not found.');
    return queryHeatmap(services.clickhouse, {
      projectId,
      mapId: map.mapId,
      bounds: map,
      cellSize: query.cellSize,
      days: query.days,
      eventName: query.eventName,
      buildId: query.buildId,
    });
  },
});
