import { describe, expect, it } from 'vitest';
import { engineFromVersion } from './server-engine.js';

describe('engineFromVersion', () => {
  it('18.16 takes literals and needs the LowCardinality setting for DDL', () => {
    const legacy = engineFromVersion('18.16.1');
    expect(legacy).toMatchObject({ generation: 'legacy', valueBinding: 'literals', accessControl: false });
    expect(legacy.ddlSettings).toEqual({ allow_experimental_low_cardinality_type: 1 });
    // 18.16 knows no optimize_on_insert (it would refuse the insert) and merges nothing at insert.
    expect(legacy.rollupInsertSettings).toEqual({});
    // One funnel query keeps 18.16's two cores half idle: two halves run at once.
    expect(legacy.funnelSlices).toBe(2);
  });

  it('26.x takes query parameters, refuses the obsolete setting, and has access control', () => {
    const modern = engineFromVersion('26.7.3.1');
    expect(modern).toMatchObject({ generation: 'modern', valueBinding: 'parameters', accessControl: true });
    expect(modern.ddlSettings).toEqual({});
    expect(modern.rollupInsertSettings).toEqual({ optimize_on_insert: 0 });
    expect(modern.funnelSlices).toBe(1);
  });

  it('24.3 binds parameters but has no DEFINER views (the parser stays the only wall)', () => {
    expect(engineFromVersion('24.3.5.1')).toMatchObject({ valueBinding: 'parameters', accessControl: false });
    expect(engineFromVersion('24.8.1.1').accessControl).toBe(true);
  });

  it('refuses a version it cannot read', () => {
    expect(() => engineFromVersion('')).toThrow(/unexpected ClickHouse version/);
  });
});
