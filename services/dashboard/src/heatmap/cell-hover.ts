import { useEffect, type MouseEvent, type RefObject } from 'react';
import type { GameMap } from '../api/maps.api';
import { cellAt, cellRect, imageToWorld, type Size } from './heatmap-geometry';

type Cell = { x: number; y: number };

/**
 * Draws the hovered cell's white outline on the overlay canvas (a canvas of its own, so moving
 * the mouse never redraws the cells below).
 */
export function useHoverOutline(
  overlay: RefObject<HTMLCanvasElement | null>,
  map: GameMap,
  size: Size,
  cellSize: number,
  hovered: Cell | undefined,
): void {
  useEffect(() => {
    const ctx = overlay.current?.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, size.width, size.height);
    if (!hovered) return;
    const rect = cellRect(map, size, hovered.x, hovered.y, cellSize);
    ctx.lineWidth = Math.max(2, size.width / 400);
    ctx.strokeStyle = '#ffffff';
    ctx.strokeRect(rect.x, rect.y, rect.width, rect.height);
  }, [overlay, hovered, map, size, cellSize]);
}

/** The cell under the mouse on a canvas CSS-scaled from `size` pixels, if any. */
export function cellUnderPointer<T extends Cell>(
  event: MouseEvent<HTMLCanvasElement>,
  cells: readonly T[],
  map: GameMap,
  size: Size,
  cellSize: number,
): T | undefined {
  const box = event.currentTarget.getBoundingClientRect();
  const px = ((event.clientX - box.left) / box.width) * size.width;
  const py = ((event.clientY - box.top) / box.height) * size.height;
  const world = imageToWorld(map, size, px, py);
  return cellAt(cells, map, cellSize, world.x, world.y);
}
