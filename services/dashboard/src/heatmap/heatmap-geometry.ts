import type { GameMap } from '../api/api-types';

/**
 * World ↔ image coordinates of a map. The analytics API bins positions on a grid anchored at
 * (worldMinX, worldMinY) and reports each cell by its centre.
 *
 * DECISION: the map image is a top-down view with world +Y pointing up the image, so the
 * image's top edge is worldMaxY and its left edge worldMinX (the usual minimap convention;
 * documented on the maps page). X grows to the right in both.
 */
export type WorldBounds = Pick<GameMap, 'worldMinX' | 'worldMinY' | 'worldMaxX' | 'worldMaxY'>;
export type Size = { width: number; height: number };
export type Rect = { x: number; y: number; width: number; height: number };

/** A world point in pixels of an image (or canvas) of `size` showing `bounds`. */
export function worldToImage(bounds: WorldBounds, size: Size, wx: number, wy: number): { x: number; y: number } {
  return {
    x: ((wx - bounds.worldMinX) / spanX(bounds)) * size.width,
    y: ((bounds.worldMaxY - wy) / spanY(bounds)) * size.height,
  };
}

/** The inverse: a pixel of the image back to world units (for hover). */
export function imageToWorld(bounds: WorldBounds, size: Size, px: number, py: number): { x: number; y: number } {
  return {
    x: bounds.worldMinX + (px / size.width) * spanX(bounds),
    y: bounds.worldMaxY - (py / size.height) * spanY(bounds),
  };
}

/**
 * The pixel rectangle of the cell centred at (cx, cy): `cellSize` world units square. The
 * last row/column may reach past the map's bounds (the grid is anchored at the minimum);
 * the canvas clips it.
 */
export function cellRect(bounds: WorldBounds, size: Size, cx: number, cy: number, cellSize: number): Rect {
  const half = cellSize / 2;
  const topLeft = worldToImage(bounds, size, cx - half, cy + half);
  const bottomRight = worldToImage(bounds, size, cx + half, cy - half);
  return { x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y };
}

/**
 * The cell under a world point, if any: the grid index of the point against the index of
 * each cell's centre (exact, unlike comparing distances with floating-point halves).
 */
export function cellAt<T extends { x: number; y: number }>(
  cells: readonly T[],
  bounds: WorldBounds,
  cellSize: number,
  wx: number,
  wy: number,
): T | undefined {
  const ix = Math.floor((wx - bounds.worldMinX) / cellSize);
  const iy = Math.floor((wy - bounds.worldMinY) / cellSize);
  return cells.find(
    (c) =>
      Math.floor((c.x - bounds.worldMinX) / cellSize) === ix && Math.floor((c.y - bounds.worldMinY) / cellSize) === iy,
  );
}

function spanX(b: WorldBounds): number {
  return b.worldMaxX - b.worldMinX || 1;
}
function spanY(b: WorldBounds): number {
  return b.worldMaxY - b.worldMinY || 1;
}
