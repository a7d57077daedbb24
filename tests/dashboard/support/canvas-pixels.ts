import type { Page } from 'playwright-core';

export type ColouredPixels = {
  count: number;
  first: { x: number; y: number } | undefined;
  width: number;
  height: number;
};

// Just what the scan uses; the tests are compiled without the DOM library.
type CanvasLike = {
  width: number;
  height: number;
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
};

/**
 * Counts the pixels of a canvas whose colour is not a shade of grey (max − min channel > 30),
 * and where the first one is: on a grey map image, those are the heatmap cells actually drawn.
 * NOTE: the function runs in the page, so it uses nothing from this module's scope.
 */
export function countColouredPixels(page: Page, selector: string): Promise<ColouredPixels> {
  return page.evaluate((sel) => {
    const doc = (globalThis as unknown as { document: { querySelector(s: string): CanvasLike | null } }).document;
    const canvas = doc.querySelector(sel);
    if (!canvas) throw new Error(`no canvas matches ${sel}`);
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    let first: { x: number; y: number } | undefined;
    for (let i = 0; i < data.length; i += 4) {
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 30) {
        count++;
        first ??= { x: (i / 4) % canvas.width, y: Math.floor(i / 4 / canvas.width) };
      }
    }
    return { count, first, width: canvas.width, height: canvas.height };
  }, selector);
}
