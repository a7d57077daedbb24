import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLICKHOUSE_MIGRATIONS_DIR } from '@framedeck/clickhouse';
import { BUILD_METRICS, scaledValue, type BuildMetric } from './builds.query.js';
import { HISTOGRAM_RELATIVE_ERROR, histogramBucketSql, reportedQuantile } from './log-histogram.js';

describe('log-bucket histograms', () => {
  it('the rollups bucket values with the same expression the queries over events use', () => {
    const views = readFileSync(`${CLICKHOUSE_MIGRATIONS_DIR}/015_rollup_insert_marks.sql`, 'utf8');
    for (const name of Object.keys(BUILD_METRICS) as BuildMetric[]) {
      expect(views).toContain(histogramBucketSql(scaledValue(name)));
    }
    // Frame time: four cell views (5-unit, 25-unit, two overview) and the build stats' view, each
    // naming the histogram twice (its bucket and count sub-columns: one aggregate, computed once).
    expect(views.split(histogramBucketSql('frame_time_ms')).length - 1).toBe(10);
    // The heatmap overview views (032's eight, 033's two) bucket nothing themselves: they gather
    // the (bucket, 1) entries the two cell views above wrote, the daily and weekly histograms alike.
    for (const [file, views] of [
      ['032_rollup_heatmap_overviews_from_cells.sql', 8],
      ['033_rollup_heatmap_overview_10_events.sql', 2],
    ] as const) {
      const overviews = readFileSync(`${CLICKHOUSE_MIGRATIONS_DIR}/${file}`, 'utf8');
      expect(overviews).not.toContain('frame_time_ms');
      expect(overviews.split('groupArrayArray(`frame_time_histogramMap.bucket`)').length - 1).toBe(views);
    }
  });

  it('a reported quantile is within the stated relative error of the value', () => {
    expect(HISTOGRAM_RELATIVE_ERROR).toBeLessThan(0.02);
    for (let value = 0.05; value < 100_000; value *= 1.0137) {
      const reported = reportedQuantile(value);
      expect(Math.abs(reported - value) / value).toBeLessThanOrEqual(HISTOGRAM_RELATIVE_ERROR + 0.0005 / value);
    }
  });

  it('values of one bucket are reported alike, values a bucket apart are not', () => {
    expect(reportedQuantile(16.6)).toBe(reportedQuantile(16.7));
    expect(reportedQuantile(16.6)).not.toBe(reportedQuantile(16.6 * 1.05));
  });
});
