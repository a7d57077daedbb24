// NOTE: everything is re-exported from the codec module, which configures protobufjs before
// the generated code loads (see int64-as-number.ts).
export {
  BatchDecodeError,
  decodeTelemetryBatch,
  encodedEventSize,
  encodeTelemetryBatch,
  telemetry,
  TelemetrySource,
  type TelemetryEvent,
  type TelemetryEventInput,
} from './telemetry-batch.codec.js';
export {
  BATCH_CONTENT_TYPE,
  DEFAULT_RETENTION_DAYS,
  ENVELOPE_HEADERS,
  envelopeHeaders,
  parseEnvelopeHeaders,
  type BatchEnvelope,
} from './batch-envelope.js';
export { OversizedEventError, splitTelemetryBatch, type BatchPart } from './batch-split.js';
