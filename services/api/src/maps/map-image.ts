import { createHash } from 'node:crypto';
import { imageSize } from 'image-size';
import type { MapImageType } from '@framedeck/postgres';

/** Uploads above this are refused with 413: 10 MiB fits an 8K × 8K PNG of a typical top-down map. */
export const MAP_IMAGE_MAX_BYTES = 10 * 1_048_576;

/**
 * Largest width or height a map image may have. The dimensions come from the image's header and
 * size the heatmap canvas the dashboard draws, so a header claiming 100000 × 100000 must not get
 * through (a few bytes of PNG header cannot be allowed to ask for a 40 GB canvas). 16384 is the
 * largest canvas side browsers draw and well above an 8K map.
 */
export const MAP_IMAGE_MAX_SIDE = 16_384;

export type MapImage = { contentType: MapImageType; width: number; height: number; sha256: string; bytes: Buffer };

/**
 * The image type from the file's first bytes — never from the client's Content-Type or file
 * name, which anyone can set: PNG signature, JPEG SOI marker, or a RIFF container of type WEBP.
 */
export function detectImageType(bytes: Buffer): MapImageType | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return undefined;
}

/** A map image, or the reason it is not one. Dimensions come from the image itself. */
export function readMapImage(bytes: Buffer): MapImage | { error: string } {
  const contentType = detectImageType(bytes);
  if (!contentType) return { error: 'file must be a PNG, JPEG or WebP image (checked by its content).' };
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    return { error: 'file is not a readable image (corrupt or truncated header).' };
  }
  if (!size.width || !size.height) return { error: 'file has no readable image dimensions.' };
  if (size.width > MAP_IMAGE_MAX_SIDE || size.height > MAP_IMAGE_MAX_SIDE) {
    return {
      error: `file is ${size.width} × ${size.height} pixels; at most ${MAP_IMAGE_MAX_SIDE} × ${MAP_IMAGE_MAX_SIDE} is accepted.`,
    };
  }
  return {
    contentType,
    width: size.width,
    height: size.height,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes,
  };
}
