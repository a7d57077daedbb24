import { describe, expect, it } from 'vitest';
import { detectImageType, readMapImage } from './map-image.js';

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
});
