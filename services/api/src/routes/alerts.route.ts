import { z } from 'zod';
import {
  ALERT_CELL_SIZES,
  ALERT_EVALUATION_DAYS,
  ALERT_METRICS,
  ALERT_RULE_BOUNDS,
  ALERT_RULE_DEFAULTS,
  ALERT_STATUSES,
  THRESHOLD_LEVELS,
} from '@framedeck/alerts';
import {
  disableAlertRule,
  findForeignAlertReferences,
  getAlertRule,
  getDefaultThresholdProfileId,
  insertAlertRule,
  listAlertHistory,
  listAlertRules,
  updateAlertRule,
  type AlertHistoryEntry,
  type AlertRuleListing,
  type Queryable,
} from '@framedeck/postgres';
import { problems } from '@framedeck/problem';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';

const { failPercentage, cooldownMinutes } = ALERT_RULE_BOUNDS;

/** Every rule field once; create adds defaults, PATCH makes all optional. */
const RULE_FIELDS = {
  name: z.string().trim().min(1).max(ALERT_RULE_BOUNDS.nameMaxLength),
  mapId: z.uuid().meta({ description: "The map's internal id (Map.id), of this project." }),
  // NOTE: a lone id (the alias thresholdProfileId) is a list of one.
  thresholdProfileIds: z
    .preprocess(
      (v) => (typeof v === 'string' ? [v] : v),
      z
        .array(z.uuid())
        .min(1)
        .max(ALERT_RULE_BOUNDS.profilesPerRule)
        .refine((ids) => new Set(ids).size === ids.length, { message: 'each profile once' }),
    )
    .meta({
      description:
        `Threshold profiles of this project, 1 to ${ALERT_RULE_BOUNDS.profilesPerRule}; the first is the rule's ` +
        'primary profile (listed as thresholdProfileId). Each cell is held to every profile; the rule triggers when ' +
        "any profile's evaluation triggers. Default: the project's default profile.",
    }),
  metric: z.enum(ALERT_METRICS).meta({
    description:
      'What a cell is held to: its average fps, frame_time (ms), memory (MB) or gpu_time (ms); its p99_frame_time ' +
      '(ms); or its hitch_share_33ms / hitch_share_50ms, the percentage (0–100) of its frames over 33.3 / 50 ms. ' +
      "The limits come from the rule's threshold profiles.",
  }),
  thresholdLevel: z.enum(THRESHOLD_LEVELS).meta({
    description: "good: a cell fails when worse than the profile's good limit; warn: when worse than its warn limit.",
  }),
  failPercentage: z.number().min(failPercentage.min).max(failPercentage.max).meta({
    description: 'Triggered when at least this percentage of the cells with data fail.',
  }),
  evaluationDays: z.literal([...ALERT_EVALUATION_DAYS]).meta({ description: 'Days of data evaluated (heatmap days).' }),
  cellSize: z.literal([...ALERT_CELL_SIZES]).meta({ description: 'Grid cell size in world units.' }),
  cooldownMinutes: z.int().min(cooldownMinutes.min).max(cooldownMinutes.max).meta({
    description: 'Minimum minutes between two notifications of the rule (0: none).',
  }),
  channelIds: z.array(z.uuid()).max(ALERT_RULE_BOUNDS.channelsPerRule).meta({
    description: 'Notification channels of this project.',
  }),
  isActive: z.boolean(),
};

/** One profile given as a single id (the Framedash CLI's --threshold-profile-id) is a list of one. */
const RULE_ALIASES = { body: { thresholdProfileId: 'thresholdProfileIds' } };

const CreateRuleBody = z.strictObject({
  ...RULE_FIELDS,
  thresholdProfileIds: RULE_FIELDS.thresholdProfileIds.optional(),
  thresholdLevel: RULE_FIELDS.thresholdLevel.default(ALERT_RULE_DEFAULTS.thresholdLevel),
  failPercentage: RULE_FIELDS.failPercentage.default(ALERT_RULE_DEFAULTS.failPercentage),
  evaluationDays: RULE_FIELDS.evaluationDays.default(ALERT_RULE_DEFAULTS.evaluationDays),
  cellSize: RULE_FIELDS.cellSize.default(ALERT_RULE_DEFAULTS.cellSize),
  cooldownMinutes: RULE_FIELDS.cooldownMinutes.default(ALERT_RULE_DEFAULTS.cooldownMinutes),
  channelIds: RULE_FIELDS.channelIds.default([]),
  isActive: RULE_FIELDS.isActive.default(ALERT_RULE_DEFAULTS.isActive),
});

const PatchRuleBody = z
  .strictObject(RULE_FIELDS)
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'send at least one field to change' });

export const AlertRuleSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    mapId: z.uuid(),
    mapName: z.string().nullable().meta({ description: 'null when the map was deleted (the rule is not evaluated).' }),
    thresholdProfileId: z.uuid().meta({ description: "The rule's primary (first) profile." }),
    thresholdProfileName: z.string().nullable(),
    thresholdProfileIds: z.array(z.uuid()).meta({ description: "All the rule's profiles, in order." }),
    metric: z.enum(ALERT_METRICS),
    thresholdLevel: z.enum(THRESHOLD_LEVELS),
    failPercentage: z.number(),
    evaluationDays: z.int(),
    cellSize: z.int(),
    cooldownMinutes: z.int(),
    isActive: z.boolean(),
    createdAt: z.iso.datetime(),
    latestStatus: z.enum(ALERT_STATUSES).nullable().meta({ description: 'null until the first evaluation.' }),
    channelIds: z.array(z.uuid()),
  })
  .meta({ id: 'AlertRule', description: 'Spec: "Alert rule (as listed)".' });

function toAlertRule(rule: AlertRuleListing): z.input<typeof AlertRuleSchema> {
  return { ...rule, createdAt: rule.createdAt.toISOString() } as z.input<typeof AlertRuleSchema>;
}

const RulePathParams = ProjectPathParams.extend({ alertId: z.uuid().meta({ description: 'Alert rule id.' }) });

/**
 * References in a body (map, profile, channels) must be this project's. Anything else — another
 * project's object or none at all — is the same 400, so ids of other projects reveal nothing.
 */
async function assertOwnReferences(
  db: Queryable,
  projectId: string,
  refs: { mapId?: string | undefined; thresholdProfileIds?: string[] | undefined; channelIds?: string[] | undefined },
): Promise<void> {
  const foreign = await findForeignAlertReferences(db, projectId, refs);
  if (foreign.length > 0) {
    throw problems.badRequest(`${foreign.join(', ')}: not found in this project.`);
  }
}

async function ruleOr404(db: Queryable, projectId: string, ruleId: string) {
  const rule = await getAlertRule(db, projectId, ruleId);
  if (!rule) throw problems.notFound('Alert rule not found.');
  return toAlertRule(rule);
}

export const listAlertRulesRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/alerts',
  operationId: 'listAlertRules',
  summary: "List the project's alert rules",
  description: 'Active and disabled rules, newest first, with the joined map and profile names and the latest status.',
  tag: 'Alerts',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: { params: ProjectPathParams },
  response: { description: 'The rules.', data: z.array(AlertRuleSchema) },
  handler: async ({ projectId, services }) => (await listAlertRules(services.pool, projectId)).map(toAlertRule),
});

export const createAlertRuleRoute = defineRoute({
  method: 'post',
  path: '/v1/projects/{id}/alerts',
  operationId: 'createAlertRule',
  summary: 'Create an alert rule',
  description:
    `Defaults: thresholdProfileIds = [the project's default profile], thresholdLevel ${ALERT_RULE_DEFAULTS.thresholdLevel}, ` +
    `failPercentage ${ALERT_RULE_DEFAULTS.failPercentage}, evaluationDays ${ALERT_RULE_DEFAULTS.evaluationDays}, ` +
    `cellSize ${ALERT_RULE_DEFAULTS.cellSize}, cooldownMinutes ${ALERT_RULE_DEFAULTS.cooldownMinutes}, ` +
    'channelIds [], isActive true. A mapId, threshold profile or channel id that is not of this project is a 400. ' +
    'The evaluator picks a new rule up on its next tick.',
  tag: 'Alerts',
  auth: { scope: 'resources:write' },
  project: 'path',
  request: { params: ProjectPathParams, body: CreateRuleBody, aliases: RULE_ALIASES },
  response: { status: 201, description: 'The rule, as listed.', data: AlertRuleSchema },
  handler: async ({ projectId, body, services }) => {
    await assertOwnReferences(services.pool, projectId, body);
    const defaultProfile = async () => {
      const id = await getDefaultThresholdProfileId(services.pool, projectId);
      if (!id) throw new Error(`project ${projectId} has no default threshold profile`);
      return [id];
    };
    const thresholdProfileIds = body.thresholdProfileIds ?? (await defaultProfile());
    const id = await insertAlertRule(services.pool, projectId, { ...body, thresholdProfileIds });
    return ruleOr404(services.pool, projectId, id);
  },
});

export const getAlertRuleRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/alerts/{alertId}',
  operationId: 'getAlertRule',
  summary: 'Get an alert rule',
  tag: 'Alerts',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: { params: RulePathParams },
  response: { description: 'The rule, as listed.', data: AlertRuleSchema },
  handler: async ({ projectId, params, services }) => ruleOr404(services.pool, projectId, params.alertId),
});

export const updateAlertRuleRoute = defineRoute({
  method: 'patch',
  path: '/v1/projects/{id}/alerts/{alertId}',
  operationId: 'updateAlertRule',
  summary: 'Update an alert rule',
  description:
    'Changes only the fields sent; channelIds replaces the whole list; isActive true re-enables a disabled rule. ' +
    "The rule is re-evaluated on the evaluator's next tick.",
  tag: 'Alerts',
  auth: { scope: 'resources:write' },
  project: 'path',
  request: { params: RulePathParams, body: PatchRuleBody, aliases: RULE_ALIASES },
  response: { description: 'The rule after the change.', data: AlertRuleSchema },
  handler: async ({ projectId, params, body, services }) => {
    await assertOwnReferences(services.pool, projectId, body);
    if (!(await updateAlertRule(services.pool, projectId, params.alertId, body))) {
      throw problems.notFound('Alert rule not found.');
    }
    return ruleOr404(services.pool, projectId, params.alertId);
  },
});

export const disableAlertRuleRoute = defineRoute({
  method: 'delete',
  path: '/v1/projects/{id}/alerts/{alertId}',
  operationId: 'disableAlertRule',
  summary: 'Disable an alert rule',
  description:
    'Sets isActive to false: the rule is no longer evaluated and sends nothing, but stays listed with its ' +
    'history. PATCH isActive true enables it again.',
  tag: 'Alerts',
  auth: { scope: 'resources:write' },
  project: 'path',
  request: { params: RulePathParams },
  response: { description: 'The disabled rule.', data: AlertRuleSchema },
  handler: async ({ projectId, params, services }) => {
    if (!(await disableAlertRule(services.pool, projectId, params.alertId))) {
      throw problems.notFound('Alert rule not found.');
    }
    return ruleOr404(services.pool, projectId, params.alertId);
  },
});

const WorstCellSchema = z.object({
  x: z.number().meta({ description: 'Cell centre X, world units.' }),
  y: z.number(),
  value: z.number().meta({
    description: "The cell's value of the rule's metric (hitch shares in percent), held to the entry's threshold.",
  }),
  eventCount: z.int().meta({ description: 'Events in the cell (its samples).' }),
  failing: z.boolean().meta({ description: 'Worse than the threshold.' }),
  dashboardUrl: z
    .url()
    .nullable()
    .meta({
      description:
        "The dashboard's heatmap of the evaluated map, cell size, window and metric, focused on this cell " +
        '(focus=x,y). null in entries recorded before history carried links.',
    }),
});

const HistoryEntrySchema = z
  .object({
    id: z.uuid(),
    alertId: z.uuid(),
    alertName: z.string(),
    evaluatedAt: z.iso.datetime(),
    status: z.enum(ALERT_STATUSES),
    metric: z.enum(ALERT_METRICS),
    thresholdLevel: z.enum(THRESHOLD_LEVELS),
    threshold: z.number().meta({ description: 'The limit cells were held to.' }),
    thresholdProfileId: z
      .uuid()
      .nullable()
      .meta({
        description:
          "The rule's profile whose limit this is: with several profiles, the one with the worst outcome. null in " +
          'entries recorded before rules had several profiles.',
      }),
    failPercentage: z.number(),
    failingCells: z.int(),
    totalCells: z.int().meta({ description: 'Cells with data for the metric; 0 = no data (status resolved).' }),
    failingPercentage: z.number(),
    worstCells: z
      .array(WorstCellSchema)
      .meta({ description: 'The cells that decided the entry: up to 5 with data, worst first (failing ones first).' }),
    dashboardUrl: z
      .url()
      .nullable()
      .meta({
        description:
          "The dashboard's heatmap of what was evaluated: `{app_origin}/projects/{id}/heatmap?mapId=…&cellSize=…&days=…" +
          "&metric=…` (the notification's dashboardUrl). null in entries recorded before history carried links.",
      }),
    notificationOutcome: z.enum(['queued', 'cooldown']).nullable().meta({
      description: 'queued: a notification was sent for this evaluation; cooldown: a transition was held back.',
    }),
    notification: z
      .object({
        id: z.uuid().meta({ description: 'The idempotency id receivers see.' }),
        kind: z.enum(ALERT_STATUSES),
        deliveries: z.array(
          z.object({
            channelId: z.uuid(),
            status: z.enum(['pending', 'delivered', 'failed']),
            attempts: z.int(),
            lastStatusCode: z.int().nullable(),
            lastError: z.string().nullable(),
            lastAttemptAt: z.iso.datetime().nullable(),
            nextAttemptAt: z.iso.datetime().nullable(),
            deliveredAt: z.iso.datetime().nullable(),
          }),
        ),
      })
      .nullable(),
  })
  .meta({ id: 'AlertHistoryEntry' });

/** Keyset cursor: the last entry's (evaluatedAt, id), opaque to clients. */
const cursor = {
  encode: (entry: AlertHistoryEntry) =>
    Buffer.from(JSON.stringify([entry.evaluatedAt.toISOString(), entry.id])).toString('base64url'),
  decode: (value: string) => {
    try {
      const [at, id] = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as [string, string];
      const evaluatedAt = new Date(at);
      if (Number.isNaN(evaluatedAt.getTime()) || !z.uuid().safeParse(id).success) throw new Error('bad cursor');
      return { evaluatedAt, id };
    } catch {
      throw problems.badRequest('cursor: not a cursor returned by this endpoint.');
    }
  },
};

function toHistoryEntry(entry: AlertHistoryEntry): z.input<typeof HistoryEntrySchema> {
  const { ruleId, ruleName, evaluatedAt, worstCells, ...rest } = entry;
  return {
    ...rest,
    alertId: ruleId,
    alertName: ruleName,
    evaluatedAt: evaluatedAt.toISOString(),
    // Cells recorded before migration 009 have no link.
    worstCells: worstCells.map((cell) => ({
      ...cell,
      dashboardUrl: cell.dashboardUrl ?? null,
    })),
  } as z.input<typeof HistoryEntrySchema>;
}

export const alertHistoryRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/alerts/history',
  operationId: 'listAlertHistory',
  summary: 'Alert evaluation history',
  description:
    'One entry per evaluation, newest first, with the worst cells that decided it (each linking the dashboard heatmap ' +
    'at that cell), a link to the evaluated heatmap, its notification and the status of each delivery. ' +
    'Paging: pass nextCursor back as cursor until it is null (keyset paging: stable while new entries arrive).',
  tag: 'Alerts',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: {
    params: ProjectPathParams,
    query: z.strictObject({
      alertId: z.uuid().optional().meta({ description: 'Only this rule.' }),
      status: z.enum(ALERT_STATUSES).optional(),
      from: z.iso.datetime({ offset: true }).optional().meta({ description: 'evaluatedAt ≥ from.' }),
      to: z.iso.datetime({ offset: true }).optional().meta({ description: 'evaluatedAt < to.' }),
      limit: z.coerce.number().int().min(1).max(200).default(50),
      cursor: z.string().max(200).optional(),
    }),
  },
  response: {
    description: 'A page of history.',
    data: z.object({ items: z.array(HistoryEntrySchema), nextCursor: z.string().nullable() }),
  },
  handler: async ({ projectId, query, services }) => {
    const entries = await listAlertHistory(services.pool, {
      projectId,
      ruleId: query.alertId,
      status: query.status,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
      before: query.cursor ? cursor.decode(query.cursor) : undefined,
      limit: query.limit + 1,
    });
    const page = entries.slice(0, query.limit);
    return {
      items: page.map(toHistoryEntry),
      nextCursor: entries.length > query.limit ? cursor.encode(page.at(-1)!) : null,
    };
  },
});
