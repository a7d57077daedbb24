/**
 * Frame samples below which a figure is too thin to judge: a build comparison gives no verdict
 * (per metric, per cell) and a cell is left out of the worst areas. One default for both, so
 * the Builds page and the worst-areas panel agree on what "enough" means.
 */
export const MIN_SAMPLES = { default: 30, min: 1, max: 100_000 } as const;
