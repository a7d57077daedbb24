import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhookBody, verifyWebhookSignature } from './webhook-signature.js';

describe('webhook signatures', () => {
  const secret = 'whsec_test-secret';
  const body = '{"id":"n1","type":"alert.triggered"}';

  it('is HMAC-SHA256 over "<timestamp>.<body>", hex, prefixed v1=', () => {
    const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(signWebhookBody(secret, 1700000000, body)).toBe(`v1=${expected}`);
  });

  it('verifies a fresh signature and refuses a changed body, another secret, a stale or missing timestamp', () => {
    const now = 1700000000;
    const sig = signWebhookBody(secret, now, body);
    const check = (over: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
      verifyWebhookSignature({
        secret,
        body,
        timestampHeader: String(now),
        signatureHeader: sig,
        nowSeconds: now + 10,
        ...over,
      });
    expect(check({})).toEqual({ valid: true });
    expect(check({ body: body.replace('n1', 'n2') })).toEqual({ valid: false, reason: 'mismatch' });
    expect(check({ secret: 'whsec_other' })).toEqual({ valid: false, reason: 'mismatch' });
    // Replaying the same request later: the signed timestamp is too old.
    expect(check({ nowSeconds: now + 301 })).toEqual({ valid: false, reason: 'stale' });
    // Re-stamping it with a fresh timestamp breaks the signature.
    expect(check({ timestampHeader: String(now + 301), nowSeconds: now + 301 })).toEqual({
      valid: false,
      reason: 'mismatch',
    });
    expect(check({ timestampHeader: undefined })).toEqual({ valid: false, reason: 'malformed' });
  });

  it('generates distinct 256-bit secrets', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(generateWebhookSecret()).not.toBe(a);
  });
});
