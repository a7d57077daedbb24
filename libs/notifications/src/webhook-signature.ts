import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signing (documented in README "Alerts" and in the OpenAPI description):
 *   X-FrameDeck-Timestamp: <unix seconds>
 *   X-FrameDeck-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
 * The timestamp is signed with the body, so a receiver that rejects timestamps older than a
 * few minutes cannot be fed a replayed request; the notification id in the body (and in
 * X-FrameDeck-Notification-Id) lets it drop repeated deliveries of one notification.
 */
export const SIGNATURE_VERSION = 'v1';
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

/** A fresh secret for a webhook channel: 256 random bits. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signWebhookBody(secret: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `${SIGNATURE_VERSION}=${mac}`;
}

export type SignatureCheck = { valid: true } | { valid: false; reason: 'malformed' | 'stale' | 'mismatch' };

/** What a receiver does (used by our tests as a real receiver would). */
export function verifyWebhookSignature(input: {
  secret: string;
  body: string;
  timestampHeader: string | undefined;
  signatureHeader: string | undefined;
  nowSeconds?: number;
  toleranceSeconds?: number;
}): SignatureCheck {
  const timestamp = Number(input.timestampHeader);
  if (!input.timestampHeader || !/^\d+$/.test(input.timestampHeader) || !input.signatureHeader) {
    return { valid: false, reason: 'malformed' };
  }
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (input.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS)) {
    return { valid: false, reason: 'stale' };
  }
  const expected = Buffer.from(signWebhookBody(input.secret, timestamp, input.body));
  const given = Buffer.from(input.signatureHeader);
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? { valid: true }
    : { valid: false, reason: 'mismatch' };
}
