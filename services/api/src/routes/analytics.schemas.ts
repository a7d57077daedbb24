import { z } from 'zod';
import { DIMENSION_FILTER_LIMITS, EVENT_SOURCES } from '@framedeck/analytics';
import { problems } from '@framedeck/problem';

/**
 * A query parameter that must be one of a fixed set of integers (the spec's "Allowed" column):
 * "7" → 7, anything else (other numbers, "7.0", repeated parameters) is a 400.
 */
export function allowedInt<const T extends readonly number[]>(values: T, defaultValue: T[number], description: string) {
  return z
    .preprocess(
      (v) => (typeof v === 'string' && /^-?\d{1,9}$/.test(v) ? Number(v) : v),
      z.literal(values as unknown as number[]).default(defaultValue),
    )
    .meta({
      description: `${description} One of ${values.join(', ')}; default ${defaultValue}.`,
    }) as unknown as z.ZodType<T[number], string | undefined>;
}

/** An integer in a range, for parameters the spec leaves to us. */
export function intInRange(min: number, max: number, defaultValue: number, description: string) {
  return z
    .preprocess(
      (v) => (typeof v === 'string' && /^-?\d{1,9}$/.test(v) ? Number(v) : v),
      z.int().min(min).max(max).default(defaultValue),
    )
    .meta({ description: `${description} ${min} to ${max}; default ${defaultValue}.` }) as unknown as z.ZodType<
    number,
    string | undefined
  >;
}

/** One of a set of strings, with a default. */
export function allowedString<const T extends readonly [string, ...string[]]>(
  values: T,
  defaultValue: T[number],
  description: string,
) {
  return z
    .enum(values)
    .default(defaultValue as never)
    .meta({ description: `${description} Default ${defaultValue}.` });
}

/** An event name as stored (non-empty; ingest caps names at 200 characters). */
export const EventNameParam = z.string().min(1).max(200);

export const analyticsDays = (values: readonly number[], defaultValue: number) =>
  allowedInt(
    values,
    defaultValue,
    'Look-back window in whole UTC days: from 00:00 UTC of the day `days` × 24 h ago up to now (and anything stamped later).',
  );

/**
 * The platform, build and source filters of the analytics views (heatmap, worst areas,
 * insights, retention, funnels, builds), declared once: spread into a route's query object.
 * Absent, every platform, build and source counts (the spec's behaviour).
 */
export const DimensionFilterParams = {
  platform: z
    .string()
    .min(1)
    .max(DIMENSION_FILTER_LIMITS.platform)
    .optional()
    .meta({
      description: `Extension: only events of this platform (exact match, 1 to ${DIMENSION_FILTER_LIMITS.platform} characters).`,
    }),
  buildId: z
    .string()
    .min(1)
    .max(DIMENSION_FILTER_LIMITS.buildId)
    .optional()
    .meta({
      description: `Extension: only events of this build_id (exact match, 1 to ${DIMENSION_FILTER_LIMITS.buildId} characters; see GET …/builds).`,
    }),
  source: z
    .enum(EVENT_SOURCES)
    .optional()
    .meta({
      description:
        'Extension: player (every event not marked automated, including events whose SDK sent no source) or ' +
        'automated (automated runs: events sent with an events:synthetic key or marked automated by the SDK).',
    }),
};

/** A finite decimal number ("-2.5", "10", "1e3"); anything else is a 400. */
const decimalParam = () =>
  z.preprocess(
    (v) =>
      typeof v === 'string' && /^-?(\d{1,20}(\.\d{0,20})?|\.\d{1,20})([eE][-+]?\d{1,3})?$/.test(v) ? Number(v) : v,
    z.number().optional(),
  );

/**
 * A z slice, one floor of a multi-floor map: only events with position_z in range. Either bound
 * may be given; zMin > zMax is a 400 (zSliceOf).
 */
export const ZSliceParams = {
  zMin: decimalParam().meta({
    description:
      'Extension: only events with position_z ≥ zMin (one floor of a multi-floor map). Served from raw events: the ' +
      'rollups keep each cell’s z range, not each event’s z.',
  }),
  zMax: decimalParam().meta({ description: 'Extension: only events with position_z ≤ zMax (see zMin).' }),
};

/** The z slice of validated query parameters; a 400 when it is empty (zMin above zMax). */
export function zSliceOf(query: { zMin?: number | undefined; zMax?: number | undefined }) {
  if (query.zMin !== undefined && query.zMax !== undefined && query.zMin > query.zMax) {
    throw problems.badRequest('Invalid request: query.zMin: must not exceed zMax.');
  }
  return { zMin: query.zMin, zMax: query.zMax };
}
