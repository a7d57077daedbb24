import type { AlertNotificationPayload } from '@framedeck/alerts';
import { postJson } from './http-post.js';
import { slackMessage } from './slack-message.js';
import { TargetRefusedError, type TargetPolicy } from './target-policy.js';
import { signWebhookBody } from './webhook-signature.js';
import { verdictForStatus, type AttemptVerdict } from './retry-policy.js';

export type ChannelTarget = { type: 'webhook' | 'slack'; url: string; secret: string | null };

export type SendResult = {
  verdict: AttemptVerdict;
  statusCode: number | null;
  /** Why it failed, safe to show the project owner (no secrets, no internal addresses). */
  error: string | null;
  retryAfterSeconds?: number;
};

/** The HTTP request a channel gets for one notification attempt. */
export function channelRequest(
  channel: ChannelTarget,
  payload: AlertNotificationPayload,
  context: { attempt: number; nowSeconds: number },
): { headers: Record<string, string>; body: string } {
  const common = {
    'content-type': 'application/json',
    'user-agent': 'FrameDeck-Notifications/1',
    // Same value on every attempt and in the body's `id`: receivers deduplicate on it.
    'x-framedeck-notification-id': payload.id,
    'x-framedeck-event': payload.type,
    'x-framedeck-delivery-attempt': String(context.attempt),
  };
  if (channel.type === 'slack') return { headers: common, body: JSON.stringify(slackMessage(payload)) };
  if (!channel.secret) throw new Error('a webhook channel has no secret');
  const body = JSON.stringify(payload);
  return {
    headers: {
      ...common,
      'x-framedeck-timestamp': String(context.nowSeconds),
      'x-framedeck-signature': signWebhookBody(channel.secret, context.nowSeconds, body),
    },
    body,
  };
}

/** One delivery attempt; never throws. */
export async function sendNotification(
  channel: ChannelTarget,
  payload: AlertNotificationPayload,
  options: { attempt: number; now: Date; policy: TargetPolicy; timeoutMs: number },
): Promise<SendResult> {
  const { headers, body } = channelRequest(channel, payload, {
    attempt: options.attempt,
    nowSeconds: Math.floor(options.now.getTime() / 1000),
  });
  try {
    const res = await postJson(channel.url, headers, body, options);
    const verdict = verdictForStatus(res.statusCode);
    return {
      verdict,
      statusCode: res.statusCode,
      error: verdict === 'delivered' ? null : `receiver answered HTTP ${res.statusCode}`,
      retryAfterSeconds: res.retryAfterSeconds,
    };
  } catch (error) {
    if (error instanceof TargetRefusedError) {
      return { verdict: 'give_up', statusCode: null, error: `target refused: ${error.message}` };
    }
    const code = (error as NodeJS.ErrnoException).code;
    return { verdict: 'retry', statusCode: null, error: code ? `network error ${code}` : (error as Error).message };
  }
}
