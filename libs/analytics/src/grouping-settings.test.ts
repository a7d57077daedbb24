import { describe, expect, it } from 'vitest';
import { compareBuilds } from './builds.query.js';
import { queryFunnel } from './funnels.query.js';
import { queryHeatmap } from './heatmap.query.js';
import { legacy, sentSql } from './sent-sql.testing.js';

const projectId = '00000000-0000-4000-8000-000000000001';
const bounds = { worldMinX: 0, worldMinY: 0, worldMaxX: 1000, worldMaxY: 1000, worldMinZ: null, worldMaxZ: null };
const TWO_LEVEL_BY_KEYS_ONLY = /SETTINGS group_by_two_level_threshold_bytes = 0\s*$/;

describe('grouping settings (grouping-settings.ts)', () => {
  it.each([
    ['heatmap, Performance mode', { projectId, mapId: 'm', bounds, cellSize: 25, days: 7 }],
    ['heatmap, Events mode, 5 units', { projectId, mapId: 'm', bounds, cellSize: 5, days: 30, eventName: 'kill' }],
  ])('%s: two-level by keys only, on both sources', async (_, q) => {
    for (const source of ['rollups', 'events'] as const) {
      const [query] = await sentSql((reader) => queryHeatmap(reader, q, source));
      expect(query).toMatch(TWO_LEVEL_BY_KEYS_ONLY);
    }
  });

  it('builds comparison: two-level by keys only', async () => {
    const q = { projectId, base: 'b1', target: 'b2', days: 30, thresholdPercent: 5, minSamples: 30 };
    const [query] = await sentSql((reader) => compareBuilds(reader, q));
    expect(query).toMatch(TWO_LEVEL_BY_KEYS_ONLY);
  });

  it('funnels group two-level from 1,000 players on, in the bounds, the listed and the whole exact query of every slice', async () => {
    const q = { projectId, steps: ['a', 'b'], windowSeconds: 3600, by: 'player' as const, days: 30 };
    // The first slice's bounds leave two players open (level −1), so the listed query runs too.
    const twoOpen = [{ level: -1, entities: 2, undecided: ['11', '12'] }];
    const sent = await sentSql(
      (r) => queryFunnel(r, q),
      (n) => (n === 1 ? twoOpen : []),
    );
    const whole = await sentSql((r) => queryFunnel(r, { ...q, windowSeconds: 60 }));
    expect([sent.length, whole.length]).toEqual([legacy.funnelSlices.count + 1, legacy.funnelSlices.count]);
    for (const query of [...sent, ...whole]) {
      expect(query).toMatch(/SETTINGS group_by_two_level_threshold = 1000\s*$/);
      expect(query).not.toContain('group_by_two_level_threshold_bytes');
    }
  });
});
