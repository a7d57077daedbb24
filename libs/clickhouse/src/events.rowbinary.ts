import { writeEventId } from './event-id.js';

/**
 * RowBinary encoding of `events` rows (clickhouse/001_events.sql), one block at a time.
 *
 * Why RowBinary built by hand: measured here, @clickhouse/client inserts ~200k rows/s from a
 * RowBinary body of ours, ~90k/s from JSONEachRow row objects; and holding millions of row
 * objects in the heap slowed everything through GC. A block is one growable buffer that is
 * reused after each insert, so steady state allocates nothing per row.
 */

/** Insert column list, in the order `append` writes them (Nested columns as their arrays). */
export const EVENT_INSERT_COLUMNS = [
  'project_id',
  'event_id',
  'event_name',
  'timestamp_us',
  'timestamp',
  'session_id',
  'player_id',
  'has_position',
  'position_x',
  'position_y',
  'position_z',
  'map_id',
  'fps',
  'frame_time_ms',
  'memory_used_bytes',
  'gpu_time_ms',
  'attributes.key',
  'attributes.value',
  'metrics.key',
  'metrics.value',
  'source',
  'build_id',
  'platform',
  'engine_version',
  'camera_yaw',
  'camera_pitch',
  'game_thread_ms',
  'render_thread_ms',
  'sdk_version',
  'received_at',
  'retention_days',
  'batch_first_index',
] as const;

/**
 * One telemetry event as the consumer holds it (structurally the decoded protobuf message,
 * so this library does not depend on the codec). Values are assumed already validated.
 */
export type EventRowInput = {
  eventName: string;
  timestampUs: number;
  sessionId: string;
  playerId: string;
  position?: { x?: number | null; y?: number | null; z?: number | null } | null;
  mapId: string;
  fps: number;
  frameTimeMs: number;
  memoryUsedBytes: number;
  gpuTimeMs: number;
  attributes: Record<string, string>;
  metrics: Record<string, number>;
  source: number;
  buildId: string;
  platform: string;
  engineVersion: string;
  /** null/undefined = not sent (stored as NULL); 0 = facing North. */
  cameraYaw?: number | null;
  cameraPitch?: number | null;
  gameThreadMs: number;
  renderThreadMs: number;
};

/** What every row of one Kafka batch shares. */
export type EventBatchContext = {
  /** uuidToRowBinary(projectId) */
  projectId: Buffer;
  /** uuidToRowBinary(batchId): event ids derive from it (see event-id.ts). */
  batchId: Buffer;
  sdkVersion: string;
  receivedAtSeconds: number;
  /** The project's raw-event retention (clickhouse/009: it leads the partition key). */
  retentionDays: number;
  /** Index of the message's first event in the sender's batch (clickhouse/007: the rollup ledger's key). */
  firstEventIndex: number;
};

const MIN_CAPACITY = 1 << 20;

export class EventsRowBinaryBlock {
  private buffer: Buffer;
  private view: DataView;
  private pos = 0;
  private rowCount = 0;

  constructor(initialCapacity = 8 << 20) {
    this.buffer = Buffer.allocUnsafe(Math.max(initialCapacity, MIN_CAPACITY));
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
  }

  get rows(): number {
    return this.rowCount;
  }

  get byteLength(): number {
    return this.pos;
  }

  /** The encoded rows; a view that stays valid until the next reset/append. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.pos);
  }

  reset(): void {
    this.pos = 0;
    this.rowCount = 0;
  }

  /** Appends event number `index` of the batch described by `context`. */
  append(context: EventBatchContext, event: EventRowInput, index: number): void {
    this.ensure(maxEncodedSize(context, event));
    const view = this.view;
    writeBytes16(this.buffer, context.projectId, this.pos);
    writeEventId(context.batchId, index, this.buffer, this.pos + 16);
    this.pos += 32;
    this.string(event.eventName);
    setInt64(view, this.pos, event.timestampUs);
    view.setUint32(this.pos + 8, Math.floor(event.timestampUs / 1_000_000), true);
    this.pos += 12;
    this.string(event.sessionId);
    this.string(event.playerId);
    const position = event.position;
    view.setUint8(this.pos, position ? 1 : 0);
    view.setFloat32(this.pos + 1, position?.x ?? 0, true);
    view.setFloat32(this.pos + 5, position?.y ?? 0, true);
    view.setFloat32(this.pos + 9, position?.z ?? 0, true);
    this.pos += 13;
    this.string(event.mapId);
    view.setFloat32(this.pos, event.fps, true);
    view.setFloat32(this.pos + 4, event.frameTimeMs, true);
    setInt64(view, this.pos + 8, event.memoryUsedBytes);
    view.setFloat32(this.pos + 16, event.gpuTimeMs, true);
    this.pos += 20;
    this.stringMap(event.attributes);
    this.numberMap(event.metrics);
    // NOTE: proto3 enums are open; a value a newer SDK invents is stored as 'unspecified'
    // rather than failing the whole block on the Enum8 column.
    view.setInt8(this.pos++, event.source === 1 || event.source === 2 ? event.source : 0);
    this.string(event.buildId);
    this.string(event.platform);
    this.string(event.engineVersion);
    this.nullableFloat32(event.cameraYaw);
    this.nullableFloat32(event.cameraPitch);
    view.setFloat32(this.pos, event.gameThreadMs, true);
    view.setFloat32(this.pos + 4, event.renderThreadMs, true);
    this.pos += 8;
    this.string(context.sdkVersion);
    view.setUint32(this.pos, context.receivedAtSeconds, true);
    view.setUint16(this.pos + 4, context.retentionDays, true);
    view.setUint32(this.pos + 6, context.firstEventIndex, true);
    this.pos += 10;
    this.rowCount++;
  }

  private nullableFloat32(value: number | null | undefined): void {
    if (value === null || value === undefined) {
      this.buffer[this.pos++] = 1;
    } else {
      this.buffer[this.pos] = 0;
      this.view.setFloat32(this.pos + 1, value, true);
      this.pos += 5;
    }
  }

  private stringMap(map: Record<string, string>): void {
    const keys = Object.keys(map);
    this.varUInt(keys.length);
    for (const key of keys) this.string(key);
    this.varUInt(keys.length);
    for (const key of keys) this.string(map[key]!);
  }

  private numberMap(map: Record<string, number>): void {
    const keys = Object.keys(map);
    this.varUInt(keys.length);
    for (const key of keys) this.string(key);
    this.varUInt(keys.length);
    for (const key of keys) {
      this.view.setFloat64(this.pos, map[key]!, true);
      this.pos += 8;
    }
  }

  /** String: LEB128 byte length, then UTF-8 bytes. */
  private string(value: string): void {
    const length = value.length;
    // Fast path: short ASCII strings (ids, names) are written by a JS loop, which beats a
    // call into the native UTF-8 encoder at these sizes.
    if (length < 128) {
      const buffer = this.buffer;
      const start = this.pos + 1;
      let i = 0;
      for (; i < length; i++) {
        const code = value.charCodeAt(i);
        if (code >= 0x80) break;
        buffer[start + i] = code;
      }
      if (i === length) {
        buffer[this.pos] = length;
        this.pos = start + length;
        return;
      }
    }
    const bytes = Buffer.byteLength(value, 'utf8');
    this.varUInt(bytes);
    this.pos += this.buffer.write(value, this.pos, bytes, 'utf8');
  }

  private varUInt(value: number): void {
    while (value >= 0x80) {
      this.buffer[this.pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    this.buffer[this.pos++] = value;
  }

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.pos + extra));
    this.buffer.copy(grown, 0, 0, this.pos);
    this.buffer = grown;
    this.view = new DataView(grown.buffer, grown.byteOffset, grown.byteLength);
  }
}

/** Int64 from a safe-integer number without a BigInt allocation (two's complement halves). */
function setInt64(view: DataView, offset: number, value: number): void {
  const high = Math.floor(value / 0x1_0000_0000);
  view.setUint32(offset, value - high * 0x1_0000_0000, true);
  view.setInt32(offset + 4, high, true);
}

function writeBytes16(target: Buffer, source: Buffer, offset: number): void {
  source.copy(target, offset, 0, 16);
}

/** An upper bound of one row's size: 3 UTF-8 bytes per UTF-16 unit, 5 bytes per varint. */
function maxEncodedSize(context: EventBatchContext, event: EventRowInput): number {
  let chars =
    event.eventName.length +
    event.sessionId.length +
    event.playerId.length +
    event.mapId.length +
    event.buildId.length +
    event.platform.length +
    event.engineVersion.length +
    context.sdkVersion.length;
  let entries = 0;
  for (const key in event.attributes) {
    chars += key.length + event.attributes[key]!.length;
    entries++;
  }
  for (const key in event.metrics) {
    chars += key.length;
    entries++;
  }
  return 256 + chars * 3 + entries * 18;
}
