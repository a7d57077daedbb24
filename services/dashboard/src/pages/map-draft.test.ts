import { describe, expect, it } from 'vitest';
import { EMPTY_BOUNDS, validateMapDraft } from './map-draft';

const image = new File([new Uint8Array([1])], 'map.png', { type: 'image/png' });
const bounds = { ...EMPTY_BOUNDS, worldMinX: '-10', worldMaxX: '10', worldMinY: '0', worldMaxY: '5' };

describe('validateMapDraft', () => {
  it('accepts a complete draft, with or without both Z bounds', () => {
    expect(validateMapDraft('Dust', 'dust', image, bounds)).toBeUndefined();
    expect(validateMapDraft('Dust', 'dust', image, { ...bounds, worldMinZ: '-1', worldMaxZ: '1' })).toBeUndefined();
  });

  it('names what is wrong', () => {
    expect(validateMapDraft('', 'dust', image, bounds)).toMatch(/name/);
    expect(validateMapDraft('Dust', 'x'.repeat(256), image, bounds)).toMatch(/255/);
    expect(validateMapDraft('Dust', 'dust', undefined, bounds)).toMatch(/image/);
    expect(validateMapDraft('Dust', 'dust', image, { ...bounds, worldMaxX: '' })).toMatch(/four/);
    expect(validateMapDraft('Dust', 'dust', image, { ...bounds, worldMaxX: '-10' })).toMatch(/min X/);
    expect(validateMapDraft('Dust', 'dust', image, { ...bounds, worldMinZ: '1' })).toMatch(/Z/);
  });
});
