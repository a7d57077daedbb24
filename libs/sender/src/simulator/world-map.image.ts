import { encodePng } from './png.js';
import { BRIDGE, REGIONS, RIVER, WORLD } from './world.js';

type Rgb = readonly [number, number, number];

const COLOURS = {
  ground: [196, 184, 150],
  grid: [176, 165, 133],
  forest: [92, 128, 82],
  market: [170, 124, 92],
  water: [96, 140, 176],
  bridge: [128, 112, 96],
} as const satisfies Record<string, Rgb>;

/**
 * A top-down picture of the simulated world (WORLD, REGIONS), for the demo project's map, so
 * a heatmap of simulated play lands on recognisable places: the forest, the market, the river
 * and its bridge. As the dashboard draws maps, the image's top edge is world max Y.
 */
export function renderWorldMapPng(size = 1000): Buffer {
  const rgb = new Uint8Array(size * size * 3);
  const unitsPerPixel = (WORLD.maxX - WORLD.minX) / size;
  for (let row = 0; row < size; row++) {
    const y = WORLD.maxY - (row + 0.5) * unitsPerPixel;
    for (let col = 0; col < size; col++) {
      const x = WORLD.minX + (col + 0.5) * unitsPerPixel;
      rgb.set(colourAt(x, y, unitsPerPixel), (row * size + col) * 3);
    }
  }
  return encodePng(size, size, rgb);
}

function colourAt(x: number, y: number, unitsPerPixel: number): Rgb {
  if (Math.abs(y - RIVER.y) <= RIVER.halfWidth) {
    return Math.abs(x - BRIDGE.x) <= BRIDGE.halfWidth ? COLOURS.bridge : COLOURS.water;
  }
  for (const region of REGIONS) {
    if (region.name === 'bridge' || Math.hypot(x - region.x, y - region.y) > region.radius) continue;
    if (region.name === 'forest') return dappled(x, y) ? COLOURS.forest : shade(COLOURS.forest, 0.85);
    // Market stalls: a checkerboard of 20-unit squares.
    return (Math.floor(x / 20) + Math.floor(y / 20)) % 2 === 0 ? COLOURS.market : shade(COLOURS.market, 0.9);
  }
  // A faint 100-unit grid helps read world coordinates off the picture.
  const onGrid = x % 100 < unitsPerPixel || y % 100 < unitsPerPixel;
  return onGrid ? COLOURS.grid : COLOURS.ground;
}

/** Deterministic canopy texture (no randomness: the same image every time). */
function dappled(x: number, y: number): boolean {
  return Math.sin(x * 0.21) + Math.sin(y * 0.17) + Math.sin((x + y) * 0.11) > -0.4;
}

function shade([r, g, b]: Rgb, factor: number): Rgb {
  return [Math.round(r * factor), Math.round(g * factor), Math.round(b * factor)];
}
