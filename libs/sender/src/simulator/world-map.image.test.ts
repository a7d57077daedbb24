import { imageSize } from 'image-size';
import { describe, expect, it } from 'vitest';
import { renderWorldMapPng } from './world-map.image.js';

describe('renderWorldMapPng', () => {
  it('is a valid PNG of the requested size, the same every time', () => {
    const png = renderWorldMapPng(200);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(imageSize(png)).toMatchObject({ width: 200, height: 200, type: 'png' });
    expect(renderWorldMapPng(200).equals(png)).toBe(true);
  });
});
