import { randomUUID } from 'node:crypto';
import {
  decideNotification,
  evaluateProfileBundle,
  linkEvaluatedCells,
  type AlertMetric,
  type BundleEvaluation,
  type ThresholdLevel,
} from '@framedeck/alerts';
import type { Logger } from '@framedeck/logging';
import type { AlertMetrics } from '@framedeck/metrics';
import {
  claimDueAlertRules,
  completeRuleLease,
  inTransaction,
  insertAlertEvaluation,
  insertAlertNotification,
  lockLeasedRuleState,
  type LeasedAlertRule,
  type Pool,
  type PoolClient,
} from '@framedeck/postgres';
import type { Clock } from '../scheduling/clock.js';
import type { CellSource } from './heatmap-cells.source.js';
import { buildNotificationPayload } from './notification-payload.js';

export type RuleEvaluatorOptions = {
  pool: Pool;
  cells: CellSource;
  clock: Clock;
  logger: Logger;
  appOrigin: string;
  /** How often each active rule is evaluated. */
  evaluationIntervalMs: number;
  /** How long a claimed rule stays ours; must exceed one evaluation (cell query + commit). */
  leaseMs: number;
  /** Rules claimed per run. */
  batchSize: number;
  metrics?: AlertMetrics;
};

export type EvaluationRun = { claimed: number; recorded: number; notifications: number; lost: number; failed: number };

type Outcome = 'recorded' | 'notified' | 'lease_lost' | 'disabled';

/**
 * Evaluates due rules. One run: claim a batch (lease), query each rule's cells, then record the
 * evaluation, the state transition and — when one is due — the notification (outbox) in ONE
 * transaction that first checks the lease is still ours. Consequences:
 *  - two evaluators never record the same evaluation: claims skip leased rules, and a late
 *    evaluator whose lease was taken over records nothing;
 *  - a crash before the commit leaves nothing behind (the lease expires, another run redoes
 *    it); a crash after it leaves the notification in the outbox for the deliverer.
 */
export class RuleEvaluator {
  constructor(private readonly options: RuleEvaluatorOptions) {}

  async runOnce(): Promise<EvaluationRun> {
    const { pool, clock, leaseMs, batchSize } = this.options;
    const leaseToken = randomUUID();
    const rules = await claimDueAlertRules(pool, { now: clock.now(), leaseToken, leaseMs, limit: batchSize });
    const run: EvaluationRun = { claimed: rules.length, recorded: 0, notifications: 0, lost: 0, failed: 0 };
    for (const rule of rules) {
      try {
        const outcome = await this.evaluate(rule, leaseToken);
        this.options.metrics?.evaluations.inc({ outcome });
        if (outcome === 'recorded' || outcome === 'notified') run.recorded++;
        if (outcome === 'notified') run.notifications++;
        if (outcome === 'lease_lost') run.lost++;
      } catch (error) {
        run.failed++;
        this.options.metrics?.evaluations.inc({ outcome: 'failed' });
        this.options.logger.error(
          { err: error, ruleId: rule.id },
          'alert rule evaluation failed; retried next interval',
        );
        await completeRuleLease(pool, { ruleId: rule.id, leaseToken, nextEvaluationAt: this.nextEvaluation() }).catch(
          () => undefined, // the lease expires by itself
        );
      }
    }
    return run;
  }

  private nextEvaluation(): Date {
    return new Date(this.options.clock.now().getTime() + this.options.evaluationIntervalMs);
  }

  private async evaluate(rule: LeasedAlertRule, leaseToken: string): Promise<Outcome> {
    const { pool, clock } = this.options;
    const cells = await this.options.cells({
      projectId: rule.projectId,
      mapId: rule.map.mapId,
      bounds: rule.map,
      cellSize: rule.cellSize,
      days: rule.evaluationDays,
      now: clock.now(),
    });
    const outcome = evaluateProfileBundle(cells, rule.profiles, {
      metric: rule.metric as AlertMetric,
      thresholdLevel: rule.thresholdLevel as ThresholdLevel,
      failPercentage: rule.failPercentage,
    });
    return inTransaction(pool, (tx) => this.record(tx, rule, leaseToken, outcome));
  }

  private async record(
    tx: PoolClient,
    rule: LeasedAlertRule,
    leaseToken: string,
    { profileId, threshold, result }: BundleEvaluation,
  ): Promise<Outcome> {
    const state = await lockLeasedRuleState(tx, rule.id, leaseToken);
    if (!state) return 'lease_lost';
    const nextEvaluationAt = this.nextEvaluation();
    // Disabled while we were querying: a disabled rule records and sends nothing.
    if (!state.isActive) {
      await completeRuleLease(tx, { ruleId: rule.id, leaseToken, nextEvaluationAt });
      return 'disabled';
    }
    const evaluatedAt = this.options.clock.now();
    const linked = linkEvaluatedCells(
      this.options.appOrigin,
      {
        projectId: rule.projectId,
        mapId: rule.map.mapId,
        cellSize: rule.cellSize,
        days: rule.evaluationDays,
        metric: rule.metric as AlertMetric,
      },
      result.worstCells,
    );
    const decision = decideNotification(result.status, state, rule.cooldownMinutes, evaluatedAt);
    const evaluationId = await insertAlertEvaluation(tx, {
      projectId: rule.projectId,
      ruleId: rule.id,
      evaluatedAt,
      status: result.status,
      metric: rule.metric,
      thresholdLevel: rule.thresholdLevel,
      threshold,
      thresholdProfileId: profileId,
      failPercentage: rule.failPercentage,
      failingCells: result.failingCells,
      totalCells: result.totalCells,
      failingPercentage: result.failingPercentage,
      worstCells: linked.worstCells,
      dashboardUrl: linked.dashboardUrl,
      notificationOutcome: decision.notify ? 'queued' : decision.reason === 'cooldown' ? 'cooldown' : null,
    });
    if (decision.notify) {
      const notificationId = randomUUID();
      await insertAlertNotification(tx, {
        id: notificationId,
        projectId: rule.projectId,
        ruleId: rule.id,
        evaluationId,
        kind: decision.kind,
        createdAt: evaluatedAt,
        payload: buildNotificationPayload({
          notificationId,
          evaluationId,
          kind: decision.kind,
          rule,
          threshold,
          result,
          linked,
          evaluatedAt,
        }),
      });
    }
    await completeRuleLease(tx, {
      ruleId: rule.id,
      leaseToken,
      nextEvaluationAt,
      evaluated: { status: result.status, at: evaluatedAt },
      notified: decision.notify ? { status: decision.kind, at: evaluatedAt } : undefined,
    });
    return decision.notify ? 'notified' : 'recorded';
  }
}
