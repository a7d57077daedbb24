import { afterAll, describe, expect, it } from 'vitest';
import { createClickHouseWriter, raw, sql } from '@framedeck/clickhouse';
import {
  histogramOfRollupSql,
  histogramOfValuesSql,
  histogramQuantilesSql,
  reportedQuantile,
  rollupQuantilesSql,
  valuesQuantilesSql,
} from '@framedeck/analytics';
import { testConfig } from '../support/stack.js';

const clickhouse = createClickHouseWriter(testConfig.clickhouse);
afterAll(() => clickhouse.close());

// The heatmap cells' quantiles (rollupQuantilesSql, valuesQuantilesSql) must be the very
// buckets the summed histogram gives (histogramQuantilesSql, which the builds comparison keeps):
// the nearest rank ⌈q·n⌉, on this engine. Groups of 1 to ~40 values hit the ranks where q·n is
// a whole number (n = 20, 100 at p95/p99), where an off-by-one would show.
describe('quantiles from bucket entries', () => {
  // Rows shaped like the rollup's: per row a Nested-like pair of arrays (bucket, count).
  const rollupRows = raw(`(SELECT number % 500 AS g,
                                  arrayMap(i -> toUInt16(280 + intHash32(number * 7 + i) % 40), range(1 + number % 5)) AS \`h.bucket\`,
                                  arrayMap(i -> toUInt64(1 + intHash32(number * 11 + i) % 3), range(1 + number % 5)) AS \`h.samples\`
                             FROM numbers(5000))`);

  it('over rollup rows: equal to the summed histogram for every group', async () => {
    const rows = await clickhouse.rows<{ summed: number[]; direct: number[] }>(sql`
      SELECT ${raw(histogramQuantilesSql(histogramOfRollupSql('h')))} AS summed, ${raw(rollupQuantilesSql('h'))} AS direct
        FROM ${rollupRows} GROUP BY g`);
    expect(rows).toHaveLength(500);
    for (const r of rows) expect(r.direct).toEqual(r.summed);
    // Not all the same bucket: the groups' quantiles differ.
    expect(new Set(rows.map((r) => r.direct[1])).size).toBeGreaterThan(5);
  });

  it('over values: equal to the summed histogram, and to the nearest rank', async () => {
    const rows = await clickhouse.rows<{ n: number; summed: number[]; direct: number[]; values: number[] }>(sql`
      SELECT count() AS n, ${raw(histogramQuantilesSql(histogramOfValuesSql('v', 'v > 0')))} AS summed,
             ${raw(valuesQuantilesSql('v', 'v > 0'))} AS direct, arraySort(groupArray(v)) AS values
        FROM (SELECT number % 97 AS g, 5 + intHash32(number) % 60 AS v FROM numbers(2000))
       GROUP BY g`);
    expect(rows).toHaveLength(97);
    for (const r of rows) {
      expect(r.direct).toEqual(r.summed);
      const nearestRank = (q: number) => r.values[Math.max(1, Math.ceil(q * r.values.length)) - 1]!;
      expect(r.direct).toEqual([0.5, 0.95, 0.99].map((q) => reportedQuantile(nearestRank(q))));
    }
  });
});
