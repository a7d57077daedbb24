export {
  checkTargetUrl,
  guardedLookup,
  isNonPublicAddress,
  TargetRefusedError,
  type TargetPolicy,
} from './target-policy.js';
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  generateWebhookSecret,
  signWebhookBody,
  verifyWebhookSignature,
  type SignatureCheck,
} from './webhook-signature.js';
export { slackMessage } from './slack-message.js';
export { postJson, type PostResult } from './http-post.js';
export { backoffDelayMs, verdictForStatus, type AttemptVerdict, type RetryPolicy } from './retry-policy.js';
export { channelRequest, sendNotification, type ChannelTarget, type SendResult } from './notification-sender.js';
