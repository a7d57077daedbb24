import { z } from 'zod';
import { listThresholdProfiles, type ThresholdProfile } from '@framedeck/postgres';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';

const limit = (description: string) => z.number().meta({ description });

export const ThresholdProfileSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    isDefault: z.boolean().meta({ description: 'The profile every project starts with (one per project).' }),
    fps: z.object({
      good: limit('A cell is good at or above this average fps.'),
      warn: limit('A cell is acceptable at or above this; below it is bad.'),
    }),
    frameTimeMs: z.object({
      good: limit('A cell is good at or below this average frame time (ms).'),
      warn: limit('Acceptable at or below this; above it is bad.'),
    }),
    gpuTimeMs: z.object({ good: limit('Good at or below (ms).'), warn: limit('Acceptable at or below (ms).') }),
    memoryMb: z.object({ good: limit('Good at or below (MB = 2^20 bytes).'), warn: limit('Acceptable at or below.') }),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: 'ThresholdProfile',
    description:
      'Per-metric limits. A rule with thresholdLevel "good" fails a cell that is worse than the good limit; ' +
      'with "warn" only a cell worse than the warn limit. fps: higher is better; times and memory: lower is better.',
  });

function toThresholdProfile(p: ThresholdProfile): z.input<typeof ThresholdProfileSchema> {
  return {
    id: p.id,
    name: p.name,
    isDefault: p.isDefault,
    fps: { good: p.fpsGood, warn: p.fpsWarn },
    frameTimeMs: { good: p.frameTimeGoodMs, warn: p.frameTimeWarnMs },
    gpuTimeMs: { good: p.gpuTimeGoodMs, warn: p.gpuTimeWarnMs },
    memoryMb: { good: p.memoryGoodMb, warn: p.memoryWarnMb },
    createdAt: p.createdAt.toISOString(),
  };
}

export const listThresholdProfilesRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/threshold-profiles',
  operationId: 'listThresholdProfiles',
  summary: "List the project's threshold profiles",
  description:
    'Every project has a default profile (created with the project): fps good ≥ 60 / warn ≥ 30, frame time ' +
    'good ≤ 16.7 ms / warn ≤ 33.3 ms, GPU time good ≤ 14 ms / warn ≤ 28 ms, memory good ≤ 4096 MB / warn ≤ 6144 MB. ' +
    'Default first.',
  tag: 'Alerts',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: { params: ProjectPathParams },
  response: { description: 'The profiles.', data: z.array(ThresholdProfileSchema) },
  handler: async ({ projectId, services }) =>
    (await listThresholdProfiles(services.pool, projectId)).map(toThresholdProfile),
});
