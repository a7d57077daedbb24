import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { largestValueBytes, packRecordBatches, recordBatchBound, recordBytes } from './record-batch.js';

describe('record batch bounds', () => {
  it('bounds gzip from above even for incompressible bytes', () => {
    for (const size of [0, 1, 1000, 65_536, 999_000]) {
      const input = randomBytes(size);
      expect(recordBatchBound(size, 'gzip')).toBeGreaterThanOrEqual(61 + gzipSync(input).length);
    }
  });

  it('sizes the largest value so its record batch stays within the limit and close to it, with the dead-letter headroom kept', () => {
    const headers = { 'fd-batch-id': '0b8f4c1e-5a57-4a39-9c1c-1f0c2a5d9e01' };
    const key = '0b8f4c1e-5a57-4a39-9c1c-1f0c2a5d9e01';
    const others = recordBytes({ key, value: null, headers });
    for (const compression of ['gzip', 'none'] as const) {
      const largest = largestValueBytes(1_000_000, compression, others);
      const bound = (value: number) =>
        recordBatchBound(recordBytes({ key, value: Buffer.alloc(value), headers }), compression);
      expect(bound(largest)).toBeLessThanOrEqual(1_000_000 - 2048);
      expect(bound(largest + 64)).toBeGreaterThan(1_000_000 - 2048);
    }
  });

  it('packs records in order into groups within the limit, and refuses a record that alone exceeds it', () => {
    const sizes = [400_000, 400_000, 400_000, 10, 900_000];
    const groups = packRecordBatches(sizes, (s) => s, 1_000_000, 'none');
    expect(groups).toEqual([[400_000, 400_000], [400_000, 10], [900_000]]);
    for (const group of groups) {
      expect(
        recordBatchBound(
          group.reduce((a, b) => a + b, 0),
          'none',
        ),
      ).toBeLessThanOrEqual(1_000_000);
    }
    expect(() => packRecordBatches([1_000_000], (s) => s, 1_000_000, 'none')).toThrow(RangeError);
  });
});
