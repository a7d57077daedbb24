import { z } from 'zod';
import { HITCH_THRESHOLDS_MS } from './cell-aggregates.js';
import { BYTES_PER_MB } from './heatmap.query.js';

/**
 * A map's extent in world units, as uploaded with the map (spec: Map). Z bounds are optional
 * (both or neither); when present, a heatmap reads only events between them.
 */
export const MapBoundsSchema = z.object({
  worldMinX: z.number(),
  worldMinY: z.number(),
  worldMaxX: z.number(),
  worldMaxY: z.number(),
  worldMinZ: z.number().nullable(),
  worldMaxZ: z.number().nullable(),
});

export type MapBounds = z.output<typeof MapBoundsSchema>;

/** A cell's share of hitches: frames over a threshold. */
function hitchShare(thresholdMs: number, fps: string) {
  return z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .meta({
      description:
        `Extension: share (0..1) of the cell’s frame samples (frame time above 0) with a frame time over ` +
        `${thresholdMs} ms (a ${fps} fps frame budget missed); null when the cell has none.`,
    });
}

/**
 * One heatmap cell as GET /v1/projects/{id}/heatmap answers it: the one declaration of the
 * shape. The query returns `HeatmapCell`, the route validates and documents with the schema, and
 * the dashboard reads the type generated from the OpenAPI document.
 */
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
          'Extension: 95th percentile of frame time in ms over the cell’s frame samples (the nearest-rank value’s ' +
          'log bucket, within 2 %: docs/rollups.md); null when the cell has none.',
      }),
    p99_frame_time: z
      .number()
      .nullable()
      .meta({
        description:
          'Extension: 99th percentile of frame time in ms over the cell’s frame samples (as p95_frame_time); null ' +
          'when the cell has none.',
      }),
    hitch_share_33ms: hitchShare(HITCH_THRESHOLDS_MS[0], '30'),
    hitch_share_50ms: hitchShare(HITCH_THRESHOLDS_MS[1], '20'),
    z: z
      .number()
      .optional()
      .meta({
        description:
          'With includeZ=true: the cell’s height, the middle of z_min..z_max (what editor overlays of the game SDKs ' +
          'place the cell at).',
      }),
    z_min: z
      .number()
      .optional()
      .meta({ description: 'With includeZ=true: the lowest position_z of the cell’s events.' }),
    z_max: z
      .number()
      .optional()
      .meta({ description: 'With includeZ=true: the highest position_z of the cell’s events.' }),
  })
  .meta({ id: 'HeatmapCell' });

export type HeatmapCell = z.output<typeof HeatmapCellSchema>;

const cellField = HeatmapCellSchema.shape;

/**
 * One of the worst areas of a map (GET /v1/projects/{id}/heatmap/worst-areas): a heatmap cell
 * with enough frame samples, its tails, hitch shares and platform mix. The tail fields are the
 * heatmap cell's own declarations (nullable there; a ranked cell always has frame samples).
 */
export const WorstAreaSchema = z
  .object({
    x: cellField.x,
    y: cellField.y,
    samples: z.int().meta({ description: 'Frame samples (frame time above 0) in the cell.' }),
    p95_frame_time: cellField.p95_frame_time,
    p99_frame_time: cellField.p99_frame_time,
    hitch_share_33ms: cellField.hitch_share_33ms,
    hitch_share_50ms: cellField.hitch_share_50ms,
    avg_fps: z
      .number()
      .nullable()
      .meta({ description: 'Mean of fps over events with fps > 0, rounded to 0.001; null when none.' }),
    platforms: z
      .array(
        z.object({
          platform: z.string().meta({ description: 'Platform as the events name it ("" when they name none).' }),
          samples: z.int().meta({ description: 'Frame samples of that platform in the cell.' }),
        }),
      )
      .meta({ description: 'Platform mix: frame samples per platform, most first (ties by name).' }),
  })
  .meta({ id: 'WorstArea' });

export type WorstArea = z.output<typeof WorstAreaSchema>;
