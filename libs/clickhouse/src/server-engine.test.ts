import { describe, expect, it } from 'vitest';
import { engineFromVersion, threadsFromSetting } from './server-engine.js';

describe('engineFromVersion', () => {
  it('18.16 takes literals and needs the LowCardinality setting for DDL', () => {
    const legacy = engineFromVersion('18.16.1');
    expect(legacy).toMatchObject({ generation: 'legacy', valueBinding: 'literals', accessControl: false });
    expect(legacy.ddlSettings).toEqual({ allow_experimental_low_cardinality_type: 1 });
    // 18.16 knows no optimize_on_insert (it would refuse the insert) and merges nothing at insert.
    expect(legacy.rollupInsertSettings).toEqual({});
    // 18.16's mutations always run in the background, and it would refuse mutations_sync.
    expect(legacy.mutationSettings).toEqual({});
    // One funnel query shares 18.16's threads poorly: two halves run at once.
    expect(legacy.funnelSlices).toEqual({ count: 2 });
  });

  it('26.x takes query parameters, refuses the obsolete setting, and has access control', () => {
    const modern = engineFromVersion('26.7.3.1');
    expect(modern).toMatchObject({ generation: 'modern', valueBinding: 'parameters', accessControl: true });
    expect(modern.ddlSettings).toEqual({});
    expect(modern.rollupInsertSettings).toEqual({ optimize_on_insert: 0 });
    expect(modern.mutationSettings).toEqual({ mutations_sync: 0 });
    expect(modern.funnelSlices).toEqual({ count: 1 });
  });

  it("18.16's funnel halves share the server's threads, one at least each; modern servers keep theirs", () => {
    expect(engineFromVersion('18.16.1', 2).funnelSlices).toEqual({ count: 2, threadsEach: 1 });
    expect(engineFromVersion('18.16.1', 1).funnelSlices).toEqual({ count: 2, threadsEach: 1 });
    expect(engineFromVersion('18.16.1', 9).funnelSlices).toEqual({ count: 2, threadsEach: 4 });
    expect(engineFromVersion('26.7.3.1', 16).funnelSlices).toEqual({ count: 1 });
  });

  it("large heatmaps are counted in two bands on both generations, each on its share of the server's threads", () => {
    expect(engineFromVersion('18.16.1', 2).heatmapSlices).toEqual({ count: 2, threadsEach: 1 });
    expect(engineFromVersion('26.7.3.1', 16).heatmapSlices).toEqual({ count: 2, threadsEach: 8 });
    expect(engineFromVersion('26.7.3.1').heatmapSlices).toEqual({ count: 2 });
  });

  it('reads max_threads as both generations show it', () => {
    expect(threadsFromSetting('2')).toBe(2);
    expect(threadsFromSetting('auto(16)')).toBe(16);
    for (const unreadable of [undefined, '', 'auto', '0']) expect(threadsFromSetting(unreadable)).toBeUndefined();
  });

  it('24.3 binds parameters but has no DEFINER views (the parser stays the only wall)', () => {
    expect(engineFromVersion('24.3.5.1')).toMatchObject({ valueBinding: 'parameters', accessControl: false });
    expect(engineFromVersion('24.8.1.1').accessControl).toBe(true);
  });

  it('refuses a version it cannot read', () => {
    expect(() => engineFromVersion('')).toThrow(/unexpected ClickHouse version/);
  });
});
