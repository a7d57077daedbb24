/** "Nice" axis ticks from 0 to at least `max`: 1, 2 or 5 × a power of ten per step. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = 0; v < max + step * 0.5; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

/** Maps [0, domainMax] linearly onto [rangeStart, rangeEnd]. */
export function linear(domainMax: number, rangeStart: number, rangeEnd: number): (v: number) => number {
  const span = domainMax || 1;
  return (v) => rangeStart + (v / span) * (rangeEnd - rangeStart);
}
