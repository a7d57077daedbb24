import type { Page } from 'playwright-core';

// Just what the read uses; the tests are compiled without the DOM library.
type CanvasLike = {
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
};

/**
 * The [r, g, b] of one pixel of a canvas, in the canvas's own pixel space (not CSS pixels).
 * NOTE: the function runs in the page, so it uses nothing from this module's scope.
 */
export function canvasPixelAt(page: Page, selector: string, x: number, y: number): Promise<[number, number, number]> {
  return page.evaluate(
    ([sel, px, py]) => {
      const doc = (globalThis as unknown as { document: { querySelector(s: string): CanvasLike | null } }).document;
      const canvas = doc.querySelector(sel as string);
      if (!canvas) throw new Error(`no canvas matches ${String(sel)}`);
      const { data } = canvas.getContext('2d')!.getImageData(px as number, py as number, 1, 1);
      return [data[0]!, data[1]!, data[2]!] as [number, number, number];
    },
    [selector, x, y] as const,
  );
}
