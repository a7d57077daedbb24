import type { AlertStatus } from './alert-rule.model.js';

/** What receivers were last told about a rule. */
export type NotifiedState = { notifiedStatus: AlertStatus | null; notifiedAt: Date | null };

export type NotificationDecision =
  { notify: true; kind: AlertStatus } | { notify: false; reason: 'unchanged' | 'cooldown' };

/**
 * Whether an evaluation sends a notification. Transitions are measured against what receivers
 * were last told, not against the previous evaluation: a rule triggers (notify "triggered"),
 * resolves (notify "resolved" only if "triggered" was sent), and no two notifications of a
 * rule are closer than cooldownMinutes.
 * NOTE: a transition inside the cooldown is not dropped for good: while the rule stays in the
 * new state, the first evaluation after the cooldown sends it. A rule that flaps and ends up
 * where receivers last saw it sends nothing.
 */
export function decideNotification(
  status: AlertStatus,
  notified: NotifiedState,
  cooldownMinutes: number,
  now: Date,
): NotificationDecision {
  const isNews =
    (status === 'triggered' && notified.notifiedStatus !== 'triggered') ||
    (status === 'resolved' && notified.notifiedStatus === 'triggered');
  if (!isNews) return { notify: false, reason: 'unchanged' };
  if (notified.notifiedAt && now.getTime() - notified.notifiedAt.getTime() < cooldownMinutes * 60_000) {
    return { notify: false, reason: 'cooldown' };
  }
  return { notify: true, kind: status };
}
