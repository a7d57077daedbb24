import { describe, expect, it } from 'vitest';
import { dataWindow, expiredPartitions, type StoredPartition } from './data-retention.js';

// A Tuesday: the current week's Monday is 2026-11-23.
const NOW = new Date('2026-11-24T15:00:00Z');
const expired = (table: string, ...partitionIds: string[]) =>
  expiredPartitions(
    partitionIds.map((partitionId): StoredPartition => ({ table, partitionId })),
    NOW,
  ).map((p) => p.partitionId);

describe('expiredPartitions', () => {
  it('expires an events week once its last day is older than the partition’s retention', () => {
    // 7 days: the week of 2026-11-09 ends on the 15th (+ 7 days = the 22nd, before today); the
    // week of the 16th still holds rows of the 17th..22nd, younger than 7 days.
    expect(expired('events', '7-20261109', '7-20261116', '7-20261123')).toEqual(['7-20261109']);
    // The boundary: the week of 2026-11-10 + 7 + 7 days is exactly today (dropped); a day later is not.
    expect(expired('events', '7-20261110', '7-20261111')).toEqual(['7-20261110']);
    // The funnels' copy of the events, partitioned alike, expires alike.
    expect(expired('funnel_steps', '7-20261109', '7-20261116')).toEqual(['7-20261109']);
  });

  it('reads each partition’s own retention: a 90-day week is kept where a 7-day one of the same week goes', () => {
    expect(expired('events', '7-20261026', '90-20261026', '90-20260824', '90-20260817')).toEqual([
      '7-20261026',
      '90-20260817',
    ]);
  });

  it('treats retention 0 (a row written without the column on 18.16) as the 90-day default', () => {
    expect(expired('events', '0-20260824', '0-20260817')).toEqual(['0-20260817']);
  });

  it('keeps the rollups 13 whole months before the current one, and the batch ledger 31 days', () => {
    // November 2026: October 2025 is the oldest of the 13 months kept; September 2025 ended before it.
    expect(expired('rollup_heatmap_cells', '202509', '202510', '202611')).toEqual(['202509']);
    expect(expired('player_days', '202509', '202510')).toEqual(['202509']);
    expect(expired('rollup_batches', '20261023', '20261024', '20261124')).toEqual(['20261023']);
  });

  it('leaves a partition id of any other shape alone instead of guessing', () => {
    expect(expired('events', 'all', '20261109', '7-2026110', 'x-20261109')).toEqual([]);
    expect(expired('rollup_heatmap_cells', 'all', '2025', '20250101')).toEqual([]);
    expect(expired('rollup_batches', '202510', 'tuple()')).toEqual([]);
  });
});

describe('dataWindow', () => {
  it('names the oldest UTC day still kept', () => {
    expect(dataWindow(7, NOW)).toEqual({ retentionDays: 7, oldestRetainedDay: '2026-11-17', rollupMonths: 13 });
  });
});
