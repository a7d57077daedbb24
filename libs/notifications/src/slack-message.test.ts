import { describe, expect, it } from 'vitest';
import type { AlertNotificationPayload } from '@framedeck/alerts';
import { slackMessage } from './slack-message.js';

const payload: AlertNotificationPayload = {
  id: 'n1',
  type: 'alert.triggered',
  createdAt: '2026-03-01T12:00:00.000Z',
  projectId: 'p1',
  rule: {
    id: 'r1',
    name: 'Low fps <dust>',
    metric: 'fps',
    thresholdLevel: 'warn',
    threshold: 30,
    failPercentage: 25,
    evaluationDays: 7,
    cellSize: 25,
  },
  map: { id: 'm1', mapId: 'dust', name: 'Dust & Sand' },
  evaluation: {
    id: 'e1',
    evaluatedAt: '2026-03-01T12:00:00.000Z',
    status: 'triggered',
    failingCells: 4,
    totalCells: 10,
    failingPercentage: 40,
    worstCells: [
      {
        x: 12.5,
        y: 37.5,
        value: 12.04,
        eventCount: 10,
        failing: true,
        dashboardUrl:
          'http://127.0.0.1:8080/projects/p1/heatmap?mapId=dust&cellSize=25&days=7&metric=fps&focus=12.5%2C37.5',
      },
    ],
  },
  dashboardUrl: 'http://127.0.0.1:8080/projects/p1/heatmap?mapId=dust&cellSize=25&days=7&metric=fps',
};

describe('slackMessage', () => {
  it('names the rule, the worst cells with world coordinates and links the heatmap; escapes names', () => {
    const { text } = slackMessage(payload);
    expect(text).toContain('*Alert triggered*: Low fps &lt;dust&gt; on Dust &amp; Sand');
    expect(text).toContain('fps below 30 fps (warn) in 4 of 10 cells (40%, limit 25%) over the last 7 days');
    expect(text).toContain('Worst cells: (12.5, 37.5) 12 fps');
    expect(text).toContain(`<${payload.dashboardUrl}|Open the heatmap>`);
  });
});
