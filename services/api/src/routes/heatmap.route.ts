import { z } from 'zod';
import {
  HEATMAP_CELL_SIZES,
  HEATMAP_DAYS,
  HEATMAP_DEFAULTS,
  HeatmapCellSchema,
  heatmapJson,
} from '@framedeck/analytics';
import { problems } from '@framedeck/problem';
import { ProjectPathParams } from '../http/common.schemas.js';
import { sendRawJsonData } from '../http/raw-json-data.js';
import { defineRoute } from '../http/route.js';
import { findMap } from '../maps/find-map.js';
import type { Pool } from '@framedeck/postgres';
import {
  allowedInt,
  analyticsDays,
  DimensionFilterParams,
  EventNameParam,
  ZSliceParams,
  zSliceOf,
} from './analytics.schemas.js';

/** The parameters of a heatmap view, shared by the heatmap and its worst areas. */
export const HeatmapViewParams = {
  mapId: z
    .string()
    .min(1)
    .max(255)
    .meta({
      description:
        "User-specified map identifier, at most 255 characters. The map's internal id (Map.id, a UUID) is accepted " +
        'too, as the Framedash MCP server sends it; a map whose own mapId is that text wins.',
    }),
  cellSize: allowedInt(HEATMAP_CELL_SIZES, HEATMAP_DEFAULTS.cellSize, 'Grid cell size in world units.'),
  days: analyticsDays(HEATMAP_DAYS, HEATMAP_DEFAULTS.days),
  ...DimensionFilterParams,
  ...ZSliceParams,
};

type HeatmapViewQuery = z.output<z.ZodObject<typeof HeatmapViewParams>>;

/**
 * A heatmap view's query for libs/analytics: the map it names (its mapId, or its internal id;
 * a 404 when there is none), the grid, range, filters and z slice (a 400 when empty).
 */
export async function heatmapView(services: { pool: Pool }, projectId: string, query: HeatmapViewQuery) {
  const map = await findMap(services.pool, projectId, query.mapId);
  if (!map) throw problems.notFound('Map not found.');
  const { cellSize, days, platform, buildId, source } = query;
  return { projectId, mapId: map.mapId, bounds: map, cellSize, days, platform, buildId, source, ...zSliceOf(query) };
}

const HeatmapQuery = z.strictObject({
  ...HeatmapViewParams,
  eventName: EventNameParam.optional().meta({
    description:
      'Events mode: only events of this name. Omit it for Performance mode (every event with a frame sample).',
  }),
  includeZ: z
    .enum(['true', 'false'])
    .optional()
    .meta({
      description:
        'true: each cell also carries z_min, z_max (its events’ height range) and z (the middle), as the game SDKs’ ' +
        'editor overlays request.',
    }),
});

export const heatmapRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/heatmap',
  operationId: 'getHeatmap',
  summary: 'Performance or event heatmap of a map',
  description:
    'Non-empty cells of a grid of cellSize world units over the map’s bounds, for events of the last `days` whole UTC days ' +
    'that have a position inside the bounds (and inside worldMinZ..worldMaxZ when the map has them, and inside ' +
    'zMin..zMax when given). A point on ' +
    'the max edge belongs to the last cell. Performance mode (no eventName) reads every event with a frame sample ' +
    '(fps or frame time above 0); Events mode reads the events of that name. Cells are ordered by y, then x. ' +
    'Unknown query parameters are a 400; a mapId with no map is a 404.',
  tag: 'Analytics',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: { params: ProjectPathParams, query: HeatmapQuery },
  response: { description: 'Heatmap cells.', data: z.array(HeatmapCellSchema) },
  // The cells go out as ClickHouse wrote them, their weights filled in: parsing and serialising
  // 10,000–40,000 cells again cost ~30 to 130–170 ms (docs/performance.md, sixteenth run).
  handler: async ({ projectId, query, services, res }) => {
    const cells = await heatmapJson(services.clickhouse, {
      ...(await heatmapView(services, projectId, query)),
      eventName: query.eventName,
      includeZ: query.includeZ === 'true',
    });
    sendRawJsonData(res, cells);
  },
});
