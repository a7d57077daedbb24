import { describe, expect, it } from 'vitest';
import { heatmapDashboardUrl, linkEvaluatedCells } from './alert-notification.js';

describe('heatmapDashboardUrl', () => {
  it('links the project heatmap with the map, cell size, window and metric, escaped', () => {
    const url = heatmapDashboardUrl('http://127.0.0.1:8080', {
      projectId: '0b7c4f3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f',
      mapId: 'de_dust 2&x=1',
      cellSize: 25,
      days: 7,
      metric: 'fps',
    });
    expect(url).toBe(
      'http://127.0.0.1:8080/projects/0b7c4f3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f/heatmap?mapId=de_dust+2%26x%3D1&cellSize=25&days=7&metric=fps',
    );
  });

  it('links each reported cell to its own place on the evaluated heatmap', () => {
    const place = { projectId: 'p1', mapId: 'dust', cellSize: 10, days: 1, metric: 'hitch_share_33ms' } as const;
    const linked = linkEvaluatedCells('http://127.0.0.1:8080', place, [
      { x: 5, y: 15, value: 12, eventCount: 40, failing: true },
    ]);
    expect(linked.dashboardUrl).toBe(
      'http://127.0.0.1:8080/projects/p1/heatmap?mapId=dust&cellSize=10&days=1&metric=hitch_share_33ms',
    );
    expect(linked.worstCells).toEqual([
      { x: 5, y: 15, value: 12, eventCount: 40, failing: true, dashboardUrl: `${linked.dashboardUrl}&focus=5%2C15` },
    ]);
  });
});
