import { z } from 'zod';
import { checkTargetUrl, generateWebhookSecret, TargetRefusedError } from '@framedeck/notifications';
import {
  deleteNotificationChannel,
  insertNotificationChannel,
  listNotificationChannels,
  type NotificationChannel,
} from '@framedeck/postgres';
import { problems } from '@framedeck/problem';
import { ProjectPathParams } from '../http/common.schemas.js';
import { defineRoute } from '../http/route.js';

const ChannelSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    type: z.enum(['webhook', 'slack']),
    target: z.string().meta({
      description:
        'Where it posts, with secrets hidden: a webhook URL without its query string; for Slack only the origin.',
    }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'NotificationChannel' });

const SIGNING_DOC =
  'Webhooks receive the notification JSON (see README "Alerts") with headers X-FrameDeck-Notification-Id ' +
  '(idempotency id: deliveries are at-least-once, drop ids already seen), X-FrameDeck-Event, ' +
  'X-FrameDeck-Timestamp (unix seconds) and X-FrameDeck-Signature: v1=hex(HMAC-SHA256(secret, "<timestamp>.<body>")); ' +
  'reject timestamps older than 5 minutes. Slack-compatible incoming webhooks receive {"text": …}. ' +
  'URLs must be https and resolve to public addresses (http and private addresses only when the server runs ' +
  'with FRAMEDECK_NOTIFICATIONS_ALLOW_LOCAL_TARGETS=1). Failed deliveries are retried with exponential backoff; ' +
  'their status is in the alert history.';

function targetOf(channel: NotificationChannel): string {
  const url = new URL(channel.url);
  return channel.type === 'slack' ? `${url.origin}/…` : `${url.origin}${url.pathname}`;
}

function toChannel(channel: NotificationChannel): z.input<typeof ChannelSchema> {
  return {
    id: channel.id,
    name: channel.name,
    type: channel.type,
    target: targetOf(channel),
    createdAt: channel.createdAt.toISOString(),
  };
}

export const listNotificationChannelsRoute = defineRoute({
  method: 'get',
  path: '/v1/projects/{id}/notification-channels',
  operationId: 'listNotificationChannels',
  summary: "List the project's notification channels",
  description: 'Oldest first. Secrets and full Slack URLs are never listed.',
  tag: 'Alerts',
  auth: { scope: 'analytics:read' },
  project: 'path',
  request: { params: ProjectPathParams },
  response: { description: 'The channels.', data: z.array(ChannelSchema) },
  handler: async ({ projectId, services }) => (await listNotificationChannels(services.pool, projectId)).map(toChannel),
});

export const createNotificationChannelRoute = defineRoute({
  method: 'post',
  path: '/v1/projects/{id}/notification-channels',
  operationId: 'createNotificationChannel',
  summary: 'Create a notification channel (signed webhook or Slack-compatible incoming webhook)',
  description: `${SIGNING_DOC} A webhook's secret is generated unless given, and returned only in this answer.`,
  tag: 'Alerts',
  auth: { scope: 'resources:write' },
  project: 'path',
  request: {
    params: ProjectPathParams,
    body: z.discriminatedUnion('type', [
      z.strictObject({
        type: z.literal('webhook'),
        name: z.string().trim().min(1).max(200),
        url: z.string().max(2048),
        secret: z.string().min(16).max(200).optional().meta({ description: 'Default: 256 random bits.' }),
      }),
      z.strictObject({
        type: z.literal('slack'),
        name: z.string().trim().min(1).max(200),
        url: z.string().max(2048).meta({ description: 'The incoming-webhook URL.' }),
      }),
    ]),
  },
  response: {
    status: 201,
    description: 'The channel; for a webhook, its signing secret (shown only this once).',
    data: z.object({ channel: ChannelSchema, secret: z.string().nullable() }),
  },
  handler: async ({ projectId, body, services }) => {
    let url: URL;
    try {
      url = checkTargetUrl(body.url, services.config.notifications);
    } catch (error) {
      if (error instanceof TargetRefusedError) throw problems.badRequest(`url: ${error.message}.`);
      throw error;
    }
    const secret = body.type === 'webhook' ? (body.secret ?? generateWebhookSecret()) : null;
    const channel = await insertNotificationChannel(services.pool, {
      projectId,
      name: body.name,
      type: body.type,
      url: url.toString(),
      secret,
    });
    return { channel: toChannel(channel), secret };
  },
});

export const deleteNotificationChannelRoute = defineRoute({
  method: 'delete',
  path: '/v1/projects/{id}/notification-channels/{channelId}',
  operationId: 'deleteNotificationChannel',
  summary: 'Delete a notification channel',
  description: 'Rules stop using it; its pending deliveries are dropped.',
  tag: 'Alerts',
  auth: { scope: 'resources:write' },
  project: 'path',
  request: { params: ProjectPathParams.extend({ channelId: z.uuid() }) },
  response: { description: 'The deleted channel id.', data: z.object({ id: z.uuid() }) },
  handler: async ({ projectId, params, services }) => {
    if (!(await deleteNotificationChannel(services.pool, projectId, params.channelId))) {
      throw problems.notFound('Notification channel not found.');
    }
    return { id: params.channelId };
  },
});
