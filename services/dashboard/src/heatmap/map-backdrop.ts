import { useEffect, useMemo, useState } from 'react';
import type { GameMap } from '../api/maps.api';
import { worldToImage, type Size } from './heatmap-geometry';

type ImageState = { status: 'loading' } | { status: 'ready'; image: HTMLImageElement } | { status: 'failed' };

/** A map's image as it loads, and the pixel size cells are drawn in (the image's own). */
export type MapBackdrop = { image: ImageState; size: Size };

/**
 * Loads the map image and sizes the drawing surface from the map's recorded image size (or the
 * image's natural size, or 1024 square while neither is known). Shared by every view that draws
 * cells over a map: the performance heatmap and the builds diff.
 */
export function useMapBackdrop(map: GameMap): MapBackdrop {
  const image = useMapImage(map.imageUrl);
  const size: Size = useMemo(
    () => ({
      width: map.imageWidth || (image.status === 'ready' ? image.image.naturalWidth : 1024),
      height: map.imageHeight || (image.status === 'ready' ? image.image.naturalHeight : 1024),
    }),
    [map.imageWidth, map.imageHeight, image],
  );
  // One object per image/size change, so effects that draw with it rerun only then.
  return useMemo(() => ({ image, size }), [image, size]);
}

/** Clears the canvas to the map image (or a dark ground while it is missing). */
export function paintBackdrop(ctx: CanvasRenderingContext2D, { image, size }: MapBackdrop): void {
  ctx.clearRect(0, 0, size.width, size.height);
  if (image.status === 'ready') ctx.drawImage(image.image, 0, 0, size.width, size.height);
  else {
    ctx.fillStyle = '#0d121c';
    ctx.fillRect(0, 0, size.width, size.height);
  }
}

/** Thin grid lines every cellSize world units, anchored at the map's minimum corner. */
export function drawGrid(ctx: CanvasRenderingContext2D, map: GameMap, size: Size, cellSize: number): void {
  const pxPerUnit = size.width / (map.worldMaxX - map.worldMinX || 1);
  if (cellSize * pxPerUnit < 6) return; // too dense to help: it would only grey the map out
  ctx.strokeStyle = 'rgba(255,255,255,0.12)';
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let wx = map.worldMinX; wx <= map.worldMaxX; wx += cellSize) {
    const x = Math.round(worldToImage(map, size, wx, map.worldMaxY).x) + 0.5;
    ctx.moveTo(x, 0);
    ctx.lineTo(x, size.height);
  }
  for (let wy = map.worldMinY; wy <= map.worldMaxY; wy += cellSize) {
    const y = Math.round(worldToImage(map, size, map.worldMinX, wy).y) + 0.5;
    ctx.moveTo(0, y);
    ctx.lineTo(size.width, y);
  }
  ctx.stroke();
}

function useMapImage(url: string): ImageState {
  const [state, setState] = useState<ImageState>({ status: 'loading' });
  useEffect(() => {
    setState({ status: 'loading' });
    const image = new Image();
    image.decoding = 'async';
    image.onload = () => setState({ status: 'ready', image });
    image.onerror = () => setState({ status: 'failed' });
    image.src = url;
    return () => {
      image.onload = null;
      image.onerror = null;
    };
  }, [url]);
  return state;
}
