export {
  decide,
  retryAfterSeconds,
  type Clock,
  type SlidingWindowCounter,
  type WindowDecision,
} from './sliding-window.js';
export { MemorySlidingWindow } from './memory-sliding-window.js';
export { RedisSlidingWindow } from './redis-sliding-window.js';
export { FailOpenSlidingWindow } from './fail-open-sliding-window.js';
export { SlidingWindowStore } from './sliding-window.store.js';
