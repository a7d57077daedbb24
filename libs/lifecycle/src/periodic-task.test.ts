import { createLogger } from '@framedeck/logging';
import { describe, expect, it } from 'vitest';
import { PeriodicTask } from './periodic-task.js';

const logger = createLogger('periodic-task-test', 'silent');
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('PeriodicTask', () => {
  it('never overlaps runs, keeps going after a failure, and stop() waits for the run in progress', async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    let finished = 0;
    const task = new PeriodicTask(
      'test',
      async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        runs++;
        await new Promise((r) => setTimeout(r, 20));
        active--;
        finished++;
        if (runs === 2) throw new Error('boom');
      },
      1,
      logger,
    );
    task.start();
    for (let i = 0; i < 10; i++) task.trigger();
    await until(() => runs >= 4);
    await task.stop();
    expect(maxActive).toBe(1);
    expect(finished).toBe(runs); // the last run was not cut off
    const after = runs;
    await new Promise((r) => setTimeout(r, 30));
    expect(runs).toBe(after);
  });

  it('trigger() during a run asks for another run right after it, instead of waiting an interval', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const task = new PeriodicTask(
      'test',
      () => {
        runs++;
        return new Promise<void>((r) => (release = r));
      },
      60_000,
      logger,
    );
    task.start();
    await until(() => runs === 1);
    task.trigger();
    release();
    await until(() => runs === 2);
    expect(runs).toBe(2);
    release();
    await task.stop();
  });
});
