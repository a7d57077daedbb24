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
export {
  applyRunContext,
  RUN_ATTRIBUTES,
  RUN_ENV,
  runContextEnv,
  runContextFromEnv,
  type EnvSource,
  type RunContext,
} from './run-contract.js';
export { FUNNEL, simulateTelemetry, type SimulationOptions } from './simulator/telemetry.simulator.js';
export { simulateLiveGame, type LiveGameOptions } from './simulator/live-game.simulator.js';
export { BRIDGE, BUILDS, PLATFORMS, RELEASES, REGIONS, RIVER, WORLD, type Region } from './simulator/world.js';
export { encodePng } from './simulator/png.js';
export { renderWorldMapPng } from './simulator/world-map.image.js';
