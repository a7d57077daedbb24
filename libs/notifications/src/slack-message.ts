import { METRIC_UNIT, type AlertNotificationPayload } from '@framedeck/alerts';

/** Slack mrkdwn control characters in user-provided text (rule and map names). */
function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * The body for a Slack-compatible incoming webhook (Slack, Mattermost, Rocket.Chat accept
 * `{"text": …}` with mrkdwn links).
 */
export function slackMessage(payload: AlertNotificationPayload): { text: string } {
  const { rule, map, evaluation } = payload;
  const unit = METRIC_UNIT[rule.metric];
  const comparison = rule.metric === 'fps' ? 'below' : 'above';
  const headline =
    evaluation.status === 'triggered'
      ? `:rotating_light: *Alert triggered*: ${escapeSlack(rule.name)} on ${escapeSlack(map.name)}`
      : `:white_check_mark: *Alert resolved*: ${escapeSlack(rule.name)} on ${escapeSlack(map.name)}`;
  const detail =
    `${rule.metric} ${comparison} ${round(rule.threshold)} ${unit} (${rule.thresholdLevel}) in ` +
    `${evaluation.failingCells} of ${evaluation.totalCells} cells (${round(evaluation.failingPercentage)}%, ` +
    `limit ${round(rule.failPercentage)}%) over the last ${rule.evaluationDays} days, ${rule.cellSize}-unit cells.`;
  const worst = evaluation.worstCells
    .map((c) => `(${round(c.x)}, ${round(c.y)}) ${round(c.value)} ${unit}`)
    .join(' · ');
  const lines = [headline, detail];
  if (worst) lines.push(`Worst cells: ${worst}`);
  lines.push(`<${payload.dashboardUrl}|Open the heatmap>`);
  return { text: lines.join('\n') };
}
