import { describe, expect, it } from 'vitest';
import { cellAt, cellRect, imageToWorld, worldToImage } from './heatmap-geometry';

// A 1000 × 500 world shown on a 400 × 200 image: 0.4 px per world unit on both axes.
const bounds = { worldMinX: -500, worldMinY: 0, worldMaxX: 500, worldMaxY: 500 };
const size = { width: 400, height: 200 };

describe('heatmap geometry', () => {
  it('puts worldMin X at the left edge and worldMax Y at the top edge', () => {
    expect(worldToImage(bounds, size, -500, 500)).toEqual({ x: 0, y: 0 });
    expect(worldToImage(bounds, size, 500, 0)).toEqual({ x: 400, y: 200 });
    expect(worldToImage(bounds, size, 0, 250)).toEqual({ x: 200, y: 100 });
  });

  it('maps image pixels back to the same world point', () => {
    const p = worldToImage(bounds, size, 123.5, 77.25);
    const back = imageToWorld(bounds, size, p.x, p.y);
    expect(back.x).toBeCloseTo(123.5, 9);
    expect(back.y).toBeCloseTo(77.25, 9);
  });

  it('draws a cell as cellSize world units around its centre', () => {
    // The API's cell centres: worldMin + (index + 0.5) × cellSize.
    expect(cellRect(bounds, size, -487.5, 12.5, 25)).toEqual({ x: 0, y: 190, width: 10, height: 10 });
    const top = cellRect(bounds, size, 487.5, 487.5, 25);
    expect(top).toEqual({ x: 390, y: 0, width: 10, height: 10 });
  });

  it('finds the cell under a point, including on the cell edges', () => {
    const cells = [
      { x: -487.5, y: 12.5, id: 'a' },
      { x: -462.5, y: 12.5, id: 'b' },
    ];
    expect(cellAt(cells, bounds, 25, -499, 1)?.id).toBe('a');
    expect(cellAt(cells, bounds, 25, -475, 24.99)?.id).toBe('b');
    expect(cellAt(cells, bounds, 25, -476, 25)).toBeUndefined();
  });
});
