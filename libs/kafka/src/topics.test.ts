import { describe, expect, it } from 'vitest';
import { topicsReady } from './topics.js';

const partition = (leader: number, isr: number[]) => ({
  partitionErrorCode: 0,
  partitionId: 0,
  leader,
  replicas: [1, 2, 3],
  isr,
  offlineReplicas: [],
});

describe('topicsReady', () => {
  it('needs every wanted topic, each partition led and with enough replicas in sync', () => {
    const events = { name: 'events', partitions: [partition(1, [1, 2, 3]), partition(2, [2, 3])] };
    expect(topicsReady([events], ['events'], 2)).toBe(true);
    expect(topicsReady([events], ['events', 'dead'], 2)).toBe(false);
    expect(topicsReady([events], ['events'], 3)).toBe(false);
  });

  it('is not ready while a partition has no leader or the topic no partitions yet', () => {
    expect(topicsReady([{ name: 'events', partitions: [partition(-1, [1, 2, 3])] }], ['events'], 1)).toBe(false);
    expect(topicsReady([{ name: 'events', partitions: [] }], ['events'], 1)).toBe(false);
  });
});
