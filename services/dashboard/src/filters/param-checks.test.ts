import { describe, expect, it } from 'vitest';
import { finiteNumber, label, oneOf, wholeNumberIn } from './param-checks';

describe('URL parameter checks', () => {
  it('accepts only the offered values', () => {
    const cellSize = oneOf([5, 10, 25, 50]);
    expect(cellSize('25')).toBeUndefined();
    expect(cellSize('7')).toBe('expected one of 5, 10, 25, 50');
  });

  it('accepts labels the API accepts, and nothing empty, too long or with control characters', () => {
    const platform = label(64);
    expect(platform('switch')).toBeUndefined();
    expect(platform('')).toBeDefined();
    expect(platform('x'.repeat(65))).toBeDefined();
    expect(platform('pc\n')).toBeDefined();
  });

  it('accepts numbers and whole numbers in range', () => {
    expect(finiteNumber('-12.5')).toBeUndefined();
    expect(finiteNumber('floor2')).toBe('expected a number');
    expect(finiteNumber(' ')).toBe('expected a number');
    expect(finiteNumber('1e3')).toBeUndefined();
    expect(['0x10', ' 1', 'Infinity', '1e999'].map(finiteNumber)).toEqual(Array(4).fill('expected a number'));
    const minSamples = wholeNumberIn(1, 1000);
    expect(minSamples('30')).toBeUndefined();
    expect(minSamples('-3')).toBeDefined();
    expect(minSamples('0')).toBeDefined();
    expect(minSamples('2.5')).toBeDefined();
  });
});
