import { describe, expect, it } from 'vitest';
import type { BuildSummary } from '../api/analytics.api';
import { defaultPair } from './default-pair';

const build = (buildId: string, samples: number): BuildSummary => ({
  buildId,
  build_id: buildId,
  samples,
  event_count: samples,
  events: samples,
  firstSeen: '2025-01-01T00:00:00Z',
  lastSeen: '2025-01-01T00:00:00Z',
  maps: 1,
  platforms: ['pc'],
});

describe('the default pair of builds', () => {
  it('skips recent builds with too few samples', () => {
    const newestFirst = [build('1.6.0-dev', 3), build('1.5.0', 400), build('1.4.9', 10), build('1.4.0', 30)];
    expect(defaultPair(newestFirst, 30)).toEqual({ base: '1.4.0', target: '1.5.0' });
  });

  it('falls back to the most recent builds when fewer than two have enough samples', () => {
    expect(defaultPair([build('b', 3), build('a', 100)], 30)).toEqual({ base: 'b', target: 'a' });
    expect(defaultPair([build('b', 3), build('a', 5)], 30)).toEqual({ base: 'a', target: 'b' });
    expect(defaultPair([build('only', 50)], 30)).toEqual({ base: 'only', target: 'only' });
    expect(defaultPair([], 30)).toBeUndefined();
  });
});
