import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { HeatmapCell } from '../api/heatmap.api';
import type { GameMap } from '../api/maps.api';
import { cellUnderPointer, useHoverOutline } from './cell-hover';
import { cellRect } from './heatmap-geometry';
import { paintCell, type HeatmapScale } from './heatmap-scale';
import { drawGrid, paintBackdrop, useMapBackdrop } from './map-backdrop';

type Props = {
  map: GameMap;
  cells: readonly HeatmapCell[];
  cellSize: number;
  /** Undefined while there is nothing to scale by (no profile yet, or no counts): the map alone. */
  scale: HeatmapScale | undefined;
  hovered: HeatmapCell | undefined;
  onHover: (cell: HeatmapCell | undefined) => void;
};

/**
 * The map image with the heatmap cells drawn over it, in the image's own pixel space (the
 * canvas has the image's size; CSS scales it to the page). A second canvas on top carries
 * the hover outline, so moving the mouse never redraws thousands of cells.
 */
export function HeatmapCanvas({ map, cells, cellSize, scale, hovered, onHover }: Props) {
  const baseRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const backdrop = useMapBackdrop(map);
  const { image, size } = backdrop;
  // What the last paint put on the canvas (read by the browser tests: cells over the loaded image).
  const [drawn, setDrawn] = useState({ cells: 0, faded: 0, backdrop: image.status });

  useEffect(() => {
    const canvas = baseRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    paintBackdrop(ctx, backdrop);
    const count = { cells: 0, faded: 0, backdrop: backdrop.image.status };
    for (const cell of cells) {
      const paint = scale && paintCell(cell, scale);
      if (!paint) continue;
      const rect = cellRect(map, size, cell.x, cell.y, cellSize);
      ctx.globalAlpha = paint.alpha;
      ctx.fillStyle = `rgb(${paint.rgb.join(' ')})`;
      ctx.fillRect(rect.x, rect.y, rect.width, rect.height);
      count.cells++;
      if (paint.faded) count.faded++;
    }
    ctx.globalAlpha = 1;
    drawGrid(ctx, map, size, cellSize);
    setDrawn(count);
  }, [cells, cellSize, scale, backdrop, map, size]);

  useHoverOutline(overlayRef, map, size, cellSize, hovered);
  const pick = (event: MouseEvent<HTMLCanvasElement>) => onHover(cellUnderPointer(event, cells, map, size, cellSize));

  // Keyboard: arrow keys walk the drawn cells in reading order.
  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    if (cells.length === 0) return;
    const step =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? -1
          : 0;
    if (step === 0) return;
    event.preventDefault();
    const index = hovered ? cells.indexOf(hovered) : -1;
    onHover(cells[(index + step + cells.length) % cells.length]);
  };

  return (
    <div className="heatmap-stage">
      <canvas
        ref={baseRef}
        width={size.width}
        height={size.height}
        role="img"
        aria-label={`Heatmap of ${map.name}: ${drawn.cells} cells coloured by ${scale?.metric.label.toLowerCase() ?? 'nothing yet'}${drawn.faded ? `, ${drawn.faded} faded for too few samples` : ''}`}
        data-testid="heatmap-canvas"
        data-cells-drawn={drawn.cells}
        data-cells-faded={drawn.faded}
        data-backdrop={drawn.backdrop}
      />
      <canvas
        ref={overlayRef}
        className="overlay"
        width={size.width}
        height={size.height}
        tabIndex={0}
        aria-label="Heatmap cells: move the mouse over a cell, or use the arrow keys, to read its numbers"
        onMouseMove={pick}
        onMouseLeave={() => onHover(undefined)}
        onKeyDown={onKeyDown}
      />
      {image.status === 'failed' && (
        <p className="heatmap-image-missing" role="status">
          The map image could not be loaded; cells are drawn on a blank background.
        </p>
      )}
    </div>
  );
}
