import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant } from '@framedeck/accounts';
import { generateWebhookSecret } from '@framedeck/notifications';
import { insertAlertRule, insertNotificationChannel } from '@framedeck/postgres';
import { startService, waitHealthy, type RunningService } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';
import { waitFor } from '../support/wait.js';
import {
  createTestMap,
  frameEvents,
  insertEvents,
  retireProjectAlerts,
  startReceiver,
  testRuleFields,
  type TestMap,
} from './support/alerts-fixtures.js';

/**
 * Real evaluator processes (services/alert-evaluator/dist) on the real stack: several instances
 * at once, and instances killed with SIGKILL in the middle of their work.
 */
const stack = connectTestStack();
const LEASE_MS = 3_000;
let projectId: string;
let map: TestMap;
const running: RunningService[] = [];

function startEvaluator(port: number): RunningService {
  const service = startService('alert-evaluator', {
    FRAMEDECK_EVALUATOR_HEALTH_PORT: String(port),
    FRAMEDECK_NOTIFICATIONS_ALLOW_LOCAL_TARGETS: '1',
    FRAMEDECK_ALERTS_POLL_INTERVAL_MS: '100',
    FRAMEDECK_ALERTS_EVALUATION_INTERVAL_MS: '300',
    FRAMEDECK_ALERTS_LEASE_MS: String(LEASE_MS),
    FRAMEDECK_NOTIFICATIONS_TIMEOUT_MS: '1500',
  });
  running.push(service);
  return service;
}

async function triggeringRule(channelId: string, name: string): Promise<string> {
  const fields = await testRuleFields(stack.pool, projectId, map, {
    name,
    failPercentage: 50,
    channelIds: [channelId],
  });
  return insertAlertRule(stack.pool, projectId, fields);
}

async function count(sql: string, ruleId: string): Promise<number> {
  const { rows } = await stack.pool.query<{ n: number }>(sql, [ruleId]);
  return rows[0]!.n;
}
const notificationsOf = (ruleId: string) =>
  count(`SELECT count(*)::int AS n FROM alert_notifications WHERE rule_id = $1`, ruleId);
const evaluationsOf = (ruleId: string) =>
  count(`SELECT count(*)::int AS n FROM alert_evaluations WHERE rule_id = $1`, ruleId);

beforeAll(async () => {
  projectId = (await bootstrapTenant(stack.pool, { plan: 'pro' })).projectId;
  map = await createTestMap(stack.pool, projectId);
  // Every cell at 20 fps: below the warn limit (30) everywhere.
  await insertEvents(
    stack.clickhouse,
    frameEvents(
      projectId,
      map,
      [
        [0, 0, 20],
        [1, 0, 20],
        [2, 1, 20],
      ],
      new Date(),
    ),
  );
});

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop('SIGKILL')));
  await retireProjectAlerts(stack.pool, projectId);
  await stack.close();
});

describe('alert evaluator instances', () => {
  it('two instances evaluating the same rules send one notification per transition', async () => {
    const secret = generateWebhookSecret();
    const receiver = await startReceiver({ secret: () => secret });
    try {
      const channel = await insertNotificationChannel(stack.pool, {
        projectId,
        name: 'hook',
        type: 'webhook',
        url: receiver.url,
        secret,
      });
      const rules = await Promise.all([1, 2, 3, 4].map((i) => triggeringRule(channel.id, `rule ${i}`)));
      const a = startEvaluator(18_183);
      const b = startEvaluator(18_193);
      await Promise.all([
        waitHealthy('http://127.0.0.1:18183/healthz', a),
        waitHealthy('http://127.0.0.1:18193/healthz', b),
      ]);
      // Let both instances race over every rule many times.
      await waitFor(async () => (await Promise.all(rules.map(evaluationsOf))).every((n) => n >= 6), {
        timeoutMs: 30_000,
        what: 'six evaluations of every rule',
      });
      await waitFor(() => receiver.received.length >= rules.length, { what: 'the notifications' });
      await Promise.all([a.stop(), b.stop()]);

      for (const ruleId of rules) expect(await notificationsOf(ruleId)).toBe(1);
      // No evaluation was done twice: one rule's evaluations are an interval (300 ms) apart.
      const { rows } = await stack.pool.query<{ gap: number }>(
        `SELECT extract(epoch FROM evaluated_at - lag(evaluated_at) OVER (PARTITION BY rule_id ORDER BY evaluated_at))
                * 1000 AS gap
           FROM alert_evaluations WHERE rule_id = ANY($1::uuid[])`,
        [rules],
      );
      const gaps = rows.map((r) => r.gap).filter((g) => g !== null);
      expect(gaps.length).toBeGreaterThanOrEqual(rules.length * 5);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(290);
      expect(receiver.received).toHaveLength(rules.length);
      expect(new Set(receiver.received.map((r) => r.json.rule.id))).toEqual(new Set(rules));
      expect(receiver.received.every((r) => r.signature?.valid)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('an instance killed between deciding and committing leaves nothing; the next one notifies once', async () => {
    const receiver = await startReceiver();
    const blocker = await stack.pool.connect();
    try {
      const channel = await insertNotificationChannel(stack.pool, {
        projectId,
        name: 'slack',
        type: 'slack',
        url: receiver.url,
        secret: null,
      });
      const ruleId = await triggeringRule(channel.id, 'killed mid-evaluation');
      // Hold every INSERT into the history: the evaluator will have queried, decided and locked
      // the rule's state when it blocks on its first INSERT, inside its recording transaction.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE alert_evaluations IN EXCLUSIVE MODE');
      const victim = startEvaluator(18_183);
      const backend = await waitFor(
        async () =>
          (
            await stack.pool.query<{ pid: number }>(
              `SELECT pid FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'
                  AND query LIKE 'INSERT INTO alert_evaluations%'`,
            )
          ).rows[0]?.pid,
        { what: 'the evaluator to block inside its recording transaction' },
      );
      await victim.stop('SIGKILL');
      await blocker.query('ROLLBACK');
      // The killed client's backend finishes its INSERT, finds its client gone and rolls back.
      await waitFor(
        async () => (await stack.pool.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1`, [backend])).rowCount === 0,
        { what: "the killed evaluator's session to end" },
      );
      expect(await evaluationsOf(ruleId)).toBe(0);
      expect(await notificationsOf(ruleId)).toBe(0);

      const successor = startEvaluator(18_193);
      await waitFor(() => receiver.received.length >= 1, { timeoutMs: 20_000, what: 'the notification' });
      await waitFor(async () => (await evaluationsOf(ruleId)) >= 4, { what: 'more evaluations after it' });
      await successor.stop();
      expect(await notificationsOf(ruleId)).toBe(1);
      expect(receiver.received.filter((r) => r.json.text.includes('killed mid-evaluation'))).toHaveLength(1);
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      blocker.release();
      await receiver.close();
    }
  });

  it('an instance killed while sending: the delivery is retried with the same notification id, never decided twice', async () => {
    // The first request is never answered: the sender is mid-delivery when it is killed.
    const receiver = await startReceiver({ respond: (_req, i) => (i === 0 ? 'hang' : 204) });
    try {
      const channel = await insertNotificationChannel(stack.pool, {
        projectId,
        name: 'hook2',
        type: 'slack',
        url: receiver.url,
        secret: null,
      });
      const ruleId = await triggeringRule(channel.id, 'killed mid-delivery');
      const victim = startEvaluator(18_183);
      await waitFor(() => receiver.received.length >= 1, { timeoutMs: 20_000, what: 'the first delivery attempt' });
      await victim.stop('SIGKILL');

      const successor = startEvaluator(18_193);
      const delivered = await waitFor(
        async () =>
          (
            await stack.pool.query<{ attempts: number }>(
              `SELECT d.attempts FROM notification_deliveries d JOIN alert_notifications n ON n.id = d.notification_id
                WHERE n.rule_id = $1 AND d.status = 'delivered'`,
              [ruleId],
            )
          ).rows[0],
        { timeoutMs: 40_000, what: 'the delivery to succeed after the lease expired' },
      );
      await successor.stop();
      expect(delivered.attempts).toBe(2);
      expect(await notificationsOf(ruleId)).toBe(1);
      const ids = receiver.received.map((r) => r.headers['x-framedeck-notification-id']);
      expect(ids).toHaveLength(2);
      expect(new Set(ids).size).toBe(1); // the receiver can drop the copy
      expect(receiver.received.map((r) => r.headers['x-framedeck-delivery-attempt'])).toEqual(['1', '2']);
    } finally {
      await receiver.close();
    }
  });
});
