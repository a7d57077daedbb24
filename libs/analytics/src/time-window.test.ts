import { describe, expect, it } from 'vitest';
import { firstWholeWeek, lastDays } from './time-window.js';

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe('firstWholeWeek', () => {
  it('is the first day itself on a Monday, else the next Monday', () => {
    expect(firstWholeWeek({ from: day('2026-11-23') })).toEqual(day('2026-11-23')); // Monday
    expect(firstWholeWeek({ from: day('2026-11-24') })).toEqual(day('2026-11-30')); // Tuesday: 6 days before it
    expect(firstWholeWeek({ from: day('2026-11-29') })).toEqual(day('2026-11-30')); // Sunday: 1 day
    expect(firstWholeWeek({ from: day('2026-12-28') })).toEqual(day('2026-12-28')); // across a year's end
    expect(firstWholeWeek({ from: day('2026-12-31') })).toEqual(day('2027-01-04'));
  });

  it('never lies more than six days after the range starts, for every day of the week', () => {
    for (let n = 0; n < 14; n++) {
      const window = lastDays(30, new Date(Date.UTC(2026, 10, 1 + n, 17, 45)));
      const monday = firstWholeWeek(window);
      expect(monday.getUTCDay()).toBe(1);
      const daysBefore = (monday.getTime() - window.from.getTime()) / 86_400_000;
      expect(daysBefore).toBeGreaterThanOrEqual(0);
      expect(daysBefore).toBeLessThanOrEqual(6);
    }
  });
});
