import { describe, expect, it } from 'vitest';
import { heatmapLink, parseFocus } from './heatmap-link';

describe('heatmap link', () => {
  it('names the map, build, cell size, period and focus the heatmap page reads', () => {
    const url = new URL(
      heatmapLink('p 1', { mapId: 'bridge', buildId: '1.5.0', cellSize: 10, days: 14, focus: { x: 502.5, y: -7.5 } }),
      'http://x',
    );
    expect(url.pathname).toBe('/projects/p%201/heatmap');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      mapId: 'bridge',
      metric: 'frame_time',
      buildId: '1.5.0',
      cellSize: '10',
      days: '14',
      focus: '502.5,-7.5',
    });
    expect(parseFocus(url.searchParams.get('focus')!)).toEqual({ x: 502.5, y: -7.5 });
  });

  it('turns a period the heatmap does not offer into its longest', () => {
    const url = new URL(heatmapLink('p', { mapId: 'm', cellSize: 25, days: 90 }), 'http://x');
    expect(url.searchParams.get('days')).toBe('30');
    expect(url.searchParams.has('focus')).toBe(false);
    expect(url.searchParams.has('buildId')).toBe(false);
  });

  it('reads no focus from a missing or hand-edited parameter', () => {
    for (const bad of ['', '1', '1,', ',2', '1,2,3', 'a,b', 'Infinity,0']) expect(parseFocus(bad)).toBeUndefined();
  });
});
