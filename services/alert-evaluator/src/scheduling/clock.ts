/** Where the evaluator and the deliverer read the time; tests pass their own. */
export type Clock = { now: () => Date };

export const systemClock: Clock = { now: () => new Date() };
