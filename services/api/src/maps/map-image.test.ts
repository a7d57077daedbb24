import { describe, expect, it } from 'vitest';
import { detectImageType, MAP_IMAGE_MAX_SIDE, readMapImage } from './map-image.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe('map image detection', () => {
  it('recognises PNG, JPEG and WebP by their first bytes only', () => {
    expect(detectImageType(Buffer.from([...PNG_SIGNATURE, 0, 0]))).toBe('image/png');
    expect(detectImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(detectImageType(Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8X', 'latin1'))).toBe('image/webp');
  });

  it('refuses everything else, whatever it claims to be', () => {
    for (const bytes of [
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.from('GIF89a', 'latin1'),
      Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt ', 'latin1'), // a RIFF that is not WebP
      Buffer.from(PNG_SIGNATURE.slice(0, 7)), // a truncated signature
      Buffer.alloc(0),
    ]) {
      expect(detectImageType(bytes)).toBeUndefined();
      expect(readMapImage(bytes)).toHaveProperty('error');
    }
  });

  it('a right signature with a broken header is not an image either', () => {
    expect(readMapImage(Buffer.from([...PNG_SIGNATURE, 1, 2, 3]))).toHaveProperty('error');
  });

  it(`refuses a header claiming more than ${MAP_IMAGE_MAX_SIDE} pixels on a side, whatever the file size`, () => {
    expect(readMapImage(pngHeader(100_000, 100_000))).toEqual({ error: expect.stringMatching(/100000 × 100000/) });
    expect(readMapImage(pngHeader(MAP_IMAGE_MAX_SIDE + 1, 16))).toHaveProperty('error');
    expect(readMapImage(pngHeader(16, MAP_IMAGE_MAX_SIDE + 1))).toHaveProperty('error');
    expect(readMapImage(pngHeader(MAP_IMAGE_MAX_SIDE, MAP_IMAGE_MAX_SIDE))).toMatchObject({
      width: MAP_IMAGE_MAX_SIDE,
      height: MAP_IMAGE_MAX_SIDE,
    });
  });
});

/** A PNG signature and IHDR chunk only: all that is read for the dimensions. */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 2, 0, 0, 0], 16); // 8-bit RGB; the CRC is left zero
  return Buffer.concat([Buffer.from(PNG_SIGNATURE), ihdr]);
}
