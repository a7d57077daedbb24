export {
  MAX_BODY_BYTES,
  MAX_INFLATED_BYTES,
  splitIntoBodies,
  type EncodedBody,
  type SplitOptions,
} from './batch.splitter.js';
export {
  DEFAULT_SDK_VERSION,
  parseRetryAfter,
  SenderError,
  TelemetrySender,
  type SenderOptions,
  type SentBatch,
} from './telemetry.sender.js';
export { FUNNEL, simulateTelemetry, type SimulationOptions } from './simulator/telemetry.simulator.js';
export { BUILDS, PLATFORMS, REGIONS, WORLD, type Region } from './simulator/world.js';
export { encodePng } from './simulator/png.js';
export { renderWorldMapPng } from './simulator/world-map.image.js';
