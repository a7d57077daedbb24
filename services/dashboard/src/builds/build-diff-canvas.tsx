import { useEffect, useRef, useState, type MouseEvent } from 'react';
import type { BuildCell } from '../api/analytics.api';
import type { GameMap } from '../api/maps.api';
import { cellUnderPointer, useHoverOutline } from '../heatmap/cell-hover';
import { cellRect } from '../heatmap/heatmap-geometry';
import { drawGrid, paintBackdrop, useMapBackdrop } from '../heatmap/map-backdrop';
import { cellPaint, REGRESSION_OUTLINE } from './diff-scale';

type Props = {
  map: GameMap;
  cells: readonly BuildCell[];
  cellSize: number;
  hovered: BuildCell | undefined;
  onHover: (cell: BuildCell | undefined) => void;
};

/**
 * The per-cell build comparison over the map image: every cell either build has samples in,
 * coloured by its change of frame time (diff-scale.ts), the cells that got significantly worse
 * outlined. The map, its size and grid come from the heatmap's backdrop; a second canvas
 * carries the hover outline, as on the heatmap page.
 */
export function BuildDiffCanvas({ map, cells, cellSize, hovered, onHover }: Props) {
  const baseRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const backdrop = useMapBackdrop(map);
  const { size } = backdrop;
  const [drawn, setDrawn] = useState({ cells: 0, outlined: 0 });

  useEffect(() => {
    const ctx = baseRef.current?.getContext('2d');
    if (!ctx) return;
    paintBackdrop(ctx, backdrop);
    for (const cell of cells) {
      const { rgb, alpha } = cellPaint(cell);
      const rect = cellRect(map, size, cell.x, cell.y, cellSize);
      ctx.globalAlpha = alpha;
      ctx.fillStyle = `rgb(${rgb.join(' ')})`;
      ctx.fillRect(rect.x, rect.y, rect.width, rect.height);
    }
    ctx.globalAlpha = 1;
    drawGrid(ctx, map, size, cellSize);
    // Outlines last, so a neighbour's fill never covers them.
    const worse = cells.filter((c) => c.verdict === 'worse');
    ctx.strokeStyle = REGRESSION_OUTLINE;
    ctx.lineWidth = Math.max(2, size.width / 300);
    for (const cell of worse) {
      const rect = cellRect(map, size, cell.x, cell.y, cellSize);
      const inset = ctx.lineWidth / 2;
      ctx.strokeRect(rect.x + inset, rect.y + inset, rect.width - 2 * inset, rect.height - 2 * inset);
    }
    setDrawn({ cells: cells.length, outlined: worse.length });
  }, [cells, cellSize, backdrop, map, size]);

  useHoverOutline(overlayRef, map, size, cellSize, hovered);
  const pick = (event: MouseEvent<HTMLCanvasElement>) => onHover(cellUnderPointer(event, cells, map, size, cellSize));

  return (
    <div className="heatmap-stage">
      <canvas
        ref={baseRef}
        width={size.width}
        height={size.height}
        role="img"
        aria-label={`Frame time change on ${map.name}: ${drawn.cells} cells, ${drawn.outlined} outlined as worse`}
        data-testid="build-diff-canvas"
        data-cells-drawn={drawn.cells}
        data-cells-outlined={drawn.outlined}
      />
      <canvas
        ref={overlayRef}
        className="overlay"
        width={size.width}
        height={size.height}
        aria-hidden="true"
        onMouseMove={pick}
        onMouseLeave={() => onHover(undefined)}
      />
      {backdrop.image.status === 'failed' && (
        <p className="heatmap-image-missing" role="status">
          The map image could not be loaded; cells are drawn on a blank background.
        </p>
      )}
    </div>
  );
}
