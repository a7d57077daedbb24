import { z } from 'zod';
import { DEFAULT_THRESHOLD_PROFILE, METRIC_LIMITS, type AlertMetric } from '@framedeck/alerts';
import {
  deleteThresholdProfile,
  getThresholdProfile,
  insertThresholdProfile,
  listThresholdProfiles,
  updateThresholdProfile,
  type Queryable,
  type ThresholdProfile,
  type ThresholdProfileConflict,
  type ThresholdProfileFields,
} from '@framedeck/postgres';
import { problems } from '@framedeck/problem';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';

const limit = (description: string) => z.number().meta({ description });

const TARGET_FIELDS = {
  platform: z.string().trim().min(1).max(100).nullable().meta({ description: 'e.g. windows, ps5; null = any.' }),
  resolution: z.string().trim().min(1).max(100).nullable().meta({ description: 'e.g. 1920x1080; null = any.' }),
  buildConfig: z.string().trim().min(1).max(100).nullable().meta({ description: 'e.g. development; null = any.' }),
  gpu: z.string().trim().min(1).max(200).nullable().meta({ description: 'GPU model or class; null = any.' }),
  storage: z.string().trim().min(1).max(100).nullable().meta({ description: 'e.g. ssd, hdd; null = any.' }),
};

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
    p99FrameTimeMs: z.object({
      good: limit("Good at or below this 99th percentile of the cell's frame times (ms)."),
      warn: limit('Acceptable at or below (ms).'),
    }),
    hitchShare33msPercent: z.object({
      good: limit("Good at or below this percentage (0–100) of the cell's frames over 33.3 ms."),
      warn: limit('Acceptable at or below (%).'),
    }),
    hitchShare50msPercent: z.object({
      good: limit("Good at or below this percentage (0–100) of the cell's frames over 50 ms."),
      warn: limit('Acceptable at or below (%).'),
    }),
    ...TARGET_FIELDS,
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: 'ThresholdProfile',
    description:
      'Per-metric limits. A rule with thresholdLevel "good" fails a cell that is worse than the good limit; ' +
      'with "warn" only a cell worse than the warn limit. fps: higher is better; times, memory and hitch shares: lower ' +
      'is better. ' +
      'platform, resolution, buildConfig, gpu and storage describe the hardware the profile is meant for (labels: ' +
      'a rule holds all its map cells to each of its profiles).',
  });

/** The profile's pairs of limits by their API name, each the limits of one alert metric. */
const LIMIT_GROUPS = {
  fps: 'fps',
  frameTimeMs: 'frame_time',
  gpuTimeMs: 'gpu_time',
  memoryMb: 'memory',
  p99FrameTimeMs: 'p99_frame_time',
  hitchShare33msPercent: 'hitch_share_33ms',
  hitchShare50msPercent: 'hitch_share_50ms',
} as const satisfies Record<string, AlertMetric>;
type LimitGroup = keyof typeof LIMIT_GROUPS;
const limitGroups = Object.keys(LIMIT_GROUPS) as LimitGroup[];

function toThresholdProfile(p: ThresholdProfile): z.input<typeof ThresholdProfileSchema> {
  const limits = Object.fromEntries(
    limitGroups.map((group) => {
      const keys = METRIC_LIMITS[LIMIT_GROUPS[group]];
      return [group, { good: p[keys.good], warn: p[keys.warn] }];
    }),
  ) as Record<LimitGroup, { good: number; warn: number }>;
  return {
    id: p.id,
    name: p.name,
    isDefault: p.isDefault,
    ...limits,
    platform: p.platform,
    resolution: p.resolution,
    buildConfig: p.buildConfig,
    gpu: p.gpu,
    storage: p.storage,
    createdAt: p.createdAt.toISOString(),
  };
}

/** A limit in a body: a non-negative number, or its decimal string (the Framedash CLI sends "60"). */
const limitValue = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z.number().min(0).max(max),
  );
const limitPair = (max: number) => z.strictObject({ good: limitValue(max), warn: limitValue(max) }).partial();
const LimitPair = limitPair(1_000_000);
/** A hitch share is a percentage of frames. */
const PercentPair = limitPair(100);

/** The body shape (canonical): the listed shape without identity; every member optional on PATCH. */
const ProfileBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  fps: LimitPair.optional(),
  frameTimeMs: LimitPair.optional(),
  gpuTimeMs: LimitPair.optional(),
  memoryMb: LimitPair.optional(),
  p99FrameTimeMs: LimitPair.optional(),
  hitchShare33msPercent: PercentPair.optional(),
  hitchShare50msPercent: PercentPair.optional(),
  platform: TARGET_FIELDS.platform.optional(),
  resolution: TARGET_FIELDS.resolution.optional(),
  buildConfig: TARGET_FIELDS.buildConfig.optional(),
  gpu: TARGET_FIELDS.gpu.optional(),
  storage: TARGET_FIELDS.storage.optional(),
});

/** The Framedash CLI's flat fields (threshold-profiles create). */
const PROFILE_ALIASES = {
  body: {
    fpsGood: 'fps.good',
    fpsWarn: 'fps.warn',
    frameTimeGood: 'frameTimeMs.good',
    frameTimeWarn: 'frameTimeMs.warn',
    gpuTimeGood: 'gpuTimeMs.good',
    gpuTimeWarn: 'gpuTimeMs.warn',
    memoryGood: 'memoryMb.good',
    memoryWarn: 'memoryMb.warn',
  },
};

type ProfileBodyValue = Partial<z.output<typeof ProfileBody>>;

/** The body as repository fields; only what was sent (PATCH) or everything with `base` filled in (POST). */
function toFields(body: ProfileBodyValue, base: Partial<ThresholdProfileFields> = {}): Partial<ThresholdProfileFields> {
  const fields: Partial<ThresholdProfileFields> = { ...base, name: body.name ?? base.name };
  for (const group of limitGroups) {
    const keys = METRIC_LIMITS[LIMIT_GROUPS[group]];
    fields[keys.good] = body[group]?.good ?? base[keys.good];
    fields[keys.warn] = body[group]?.warn ?? base[keys.warn];
  }
  for (const key of Object.keys(TARGET_FIELDS) as Array<keyof typeof TARGET_FIELDS>) {
    if (body[key] !== undefined) fields[key] = body[key];
  }
  return fields;
}

function refuse(conflict: ThresholdProfileConflict): never {
  throw conflict === 'name_taken'
    ? problems.conflict('A threshold profile of this name exists in this project.')
    : problems.badRequest(
        'Invalid request: body: each good limit must be at least as strict as its warn limit ' +
          '(fps good ≥ warn; frame time, GPU time, memory, p99 frame time and hitch shares good ≤ warn).',
      );
}

async function profileOr404(db: Queryable, projectId: string, profileId: string) {
  const profile = await getThresholdProfile(db, projectId, profileId);
  if (!profile) throw problems.notFound('Threshold profile not found.');
  return toThresholdProfile(profile);
}

const ProfilePathParams = ProjectPathParams.extend({ profileId: z.uuid().meta({ description: 'Profile id.' }) });

export const listThresholdProfilesRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/threshold-profiles',
  operationId: 'listThresholdProfiles',
  summary: "List the project's threshold profiles",
  description:
    'Every project has a default profile (created with the project): fps good ≥ 60 / warn ≥ 30, frame time ' +
    'good ≤ 16.7 ms / warn ≤ 33.3 ms, GPU time good ≤ 14 ms / warn ≤ 28 ms, memory good ≤ 4096 MB / warn ≤ 6144 MB, ' +
    'p99 frame time good ≤ 33.3 ms / warn ≤ 50 ms, frames over 33.3 ms good ≤ 1 % / warn ≤ 5 %, frames over 50 ms ' +
    'good ≤ 0.5 % / warn ≤ 2 %. Default first.',
  tag: 'Alerts',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: { params: ProjectPathParams },
  response: { description: 'The profiles.', data: z.array(ThresholdProfileSchema) },
  handler: async ({ projectId, services }) =>
    (await listThresholdProfiles(services.pool, projectId)).map(toThresholdProfile),
});

export const createThresholdProfileRoute = defineRoute({
  method: 'post',
  path: '/v1/projects/{id}/threshold-profiles',
  operationId: 'createThresholdProfile',
  summary: 'Create a threshold profile',
  description:
    'Limits left out take the default profile’s values (see the list). A name already used in the project is a 409; ' +
    'a good limit less strict than its warn limit is a 400.',
  tag: 'Alerts',
  auth: { scope: 'resources:write' },
  project: 'path',
  request: { params: ProjectPathParams, body: ProfileBody, aliases: PROFILE_ALIASES },
  response: { status: 201, description: 'The profile, as listed.', data: ThresholdProfileSchema },
  errors: [409],
  handler: async ({ projectId, body, services }) => {
    const { name: _defaultName, ...defaults } = DEFAULT_THRESHOLD_PROFILE;
    const fields = toFields(body, {
      ...defaults,
      platform: null,
      resolution: null,
      buildConfig: null,
      gpu: null,
      storage: null,
    }) as ThresholdProfileFields;
    const inserted = await insertThresholdProfile(services.pool, projectId, fields);
    if ('conflict' in inserted) refuse(inserted.conflict);
    return profileOr404(services.pool, projectId, inserted.id);
  },
});

export const updateThresholdProfileRoute = defineRoute({
  method: 'patch',
  path: '/v1/projects/{id}/threshold-profiles/{profileId}',
  operationId: 'updateThresholdProfile',
  summary: 'Update a threshold profile',
  description:
    'Changes only what is sent (a target sent as null becomes "any"). Rules using the profile are held to the new ' +
    'limits from their next evaluation.',
  tag: 'Alerts',
  auth: { scope: 'resources:write' },
  project: 'path',
  request: { params: ProfilePathParams, body: ProfileBody.partial(), aliases: PROFILE_ALIASES },
  response: { description: 'The profile after the change.', data: ThresholdProfileSchema },
  errors: [409],
  handler: async ({ projectId, params, body, services }) => {
    const updated = await updateThresholdProfile(services.pool, projectId, params.profileId, toFields(body));
    if (updated === 'missing') throw problems.notFound('Threshold profile not found.');
    if (typeof updated === 'object') refuse(updated.conflict);
    return profileOr404(services.pool, projectId, params.profileId);
  },
});

export const deleteThresholdProfileRoute = defineRoute({
  method: 'delete',
  path: '/v1/projects/{id}/threshold-profiles/{profileId}',
  operationId: 'deleteThresholdProfile',
  summary: 'Delete a threshold profile',
  description:
    'The default profile cannot be deleted, nor a profile an alert rule uses (disabled rules included): 409. ' +
    'Change those rules’ thresholdProfileIds first.',
  tag: 'Alerts',
  auth: { scope: 'resources:write' },
  project: 'path',
  request: { params: ProfilePathParams },
  response: { description: 'The deleted profile id.', data: z.object({ id: z.uuid() }) },
  errors: [409],
  handler: async ({ projectId, params, services }) => {
    const outcome = await deleteThresholdProfile(services.pool, projectId, params.profileId);
    if (outcome === 'missing') throw problems.notFound('Threshold profile not found.');
    if (outcome === 'is_default') throw problems.conflict('The default threshold profile cannot be deleted.');
    if (outcome === 'in_use') throw problems.conflict('An alert rule uses this threshold profile.');
    return { id: params.profileId };
  },
});
