import { encodePng } from '@framedeck/sender';

/** A solid-colour PNG: the map image the browser test uploads. Grey on purpose: cells drawn over it are the only coloured pixels. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < rgb.length; i += 3) rgb.set([r, g, b], i);
  return encodePng(width, height, rgb);
}
