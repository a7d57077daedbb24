// A stand-in for a game's automated profiling run, for the CI gate tests (ci-gate.test.ts): it
// flies over the map and sends frame samples with FrameDeck's TypeScript sender, configured by
// nothing but the environment — the run contract (FRAMEDECK_BUILD_ID, FRAMEDECK_GIT_BRANCH, …)
// and FRAMEDECK_INGEST_URL / FRAMEDECK_INGEST_KEY — exactly as `framedeck run-profile-test`
// exports it. Its events claim to come from a player; the key decides what is stored.
//   PROFILE_MAP (bridge), PROFILE_SAMPLES (4000), PROFILE_SEED (7): what to send; the same seed
//   gives the same positions and frame times. PROFILE_SLOW_REGION (1): frame times in the
//   region x 100–150, y 50–100 multiplied by it (a local regression).
import { TelemetrySender } from '@framedeck/sender';
import { TelemetrySource } from '@framedeck/proto';

const mapId = process.env.PROFILE_MAP ?? 'bridge';
const samples = Number(process.env.PROFILE_SAMPLES ?? 4000);
const slowRegion = Number(process.env.PROFILE_SLOW_REGION ?? 1);
let seed = Number(process.env.PROFILE_SEED ?? 7);
const uniform = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
/** Roughly normal noise (sum of four uniforms) with standard deviation ≈ sd. */
const noise = (sd) => (uniform() + uniform() + uniform() + uniform() - 2) * sd * 1.73;

const now = Date.now() * 1000;
const events = Array.from({ length: samples }, (_, i) => {
  const x = uniform() * 200;
  const y = uniform() * 200;
  const slow = x >= 100 && x < 150 && y >= 50 && y < 100;
  const frameTimeMs = (12 + noise(1.5)) * (slow ? slowRegion : 1);
  return {
    eventName: 'perf_sample',
    sessionId: 'profile-run',
    playerId: 'qa-bot',
    timestampUs: now - (samples - i) * 1000,
    mapId,
    position: { x, y, z: 0 },
    frameTimeMs,
    fps: 1000 / frameTimeMs,
    platform: 'pc',
    source: TelemetrySource.TELEMETRY_SOURCE_PLAYER,
  };
});

const sender = new TelemetrySender({ sdkVersion: 'profile-game/1.0' });
await sender.send(events);
await sender.close();
console.log(`profile-game: sent ${samples} samples of build ${sender.run.buildId ?? '(none)'}`);
