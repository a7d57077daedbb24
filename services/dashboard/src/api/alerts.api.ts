import { http } from './http-client';
import { enc } from './projects.api';

export type AlertMetric = 'fps' | 'frame_time' | 'memory' | 'gpu_time';
export type ThresholdLevel = 'warn' | 'good';
export type AlertStatus = 'triggered' | 'resolved';

export type AlertRule = {
  id: string;
  name: string;
  /** The map's internal id (Map.id). */
  mapId: string;
  mapName: string | null;
  thresholdProfileId: string;
  thresholdProfileName: string | null;
  metric: AlertMetric;
  thresholdLevel: ThresholdLevel;
  failPercentage: number;
  evaluationDays: number;
  cellSize: number;
  cooldownMinutes: number;
  isActive: boolean;
  createdAt: string;
  latestStatus: AlertStatus | null;
  channelIds: string[];
};

export type NewAlertRule = {
  name: string;
  mapId: string;
  metric: AlertMetric;
  thresholdLevel: ThresholdLevel;
  failPercentage: number;
  evaluationDays: number;
  cellSize: number;
  cooldownMinutes: number;
  channelIds: string[];
  thresholdProfileId?: string | undefined;
};

export type AlertHistoryEntry = {
  id: string;
  alertId: string;
  alertName: string;
  evaluatedAt: string;
  status: AlertStatus;
  metric: AlertMetric;
  thresholdLevel: ThresholdLevel;
  threshold: number;
  failPercentage: number;
  failingCells: number;
  totalCells: number;
  failingPercentage: number;
  worstCells: { x: number; y: number; value: number; eventCount: number; failing: boolean }[];
  notificationOutcome: 'queued' | 'cooldown' | null;
  notification: {
    id: string;
    kind: AlertStatus;
    deliveries: {
      channelId: string;
      status: 'pending' | 'delivered' | 'failed';
      attempts: number;
      lastError: string | null;
    }[];
  } | null;
};

export type NotificationChannel = {
  id: string;
  name: string;
  type: 'webhook' | 'slack';
  target: string;
  createdAt: string;
};
export type NewChannel = { type: 'webhook' | 'slack'; name: string; url: string };

export type ThresholdProfile = {
  id: string;
  name: string;
  isDefault: boolean;
  fps: { good: number; warn: number };
  frameTimeMs: { good: number; warn: number };
  gpuTimeMs: { good: number; warn: number };
  memoryMb: { good: number; warn: number };
  createdAt: string;
};

export const ALERT_METRIC_LABELS: Record<AlertMetric, string> = {
  fps: 'FPS',
  frame_time: 'Frame time (ms)',
  memory: 'Memory (MB)',
  gpu_time: 'GPU time (ms)',
};

const base = (projectId: string) => `/v1/projects/${enc(projectId)}`;

export const alertsApi = {
  rules: (projectId: string, signal?: AbortSignal) =>
    http.request<AlertRule[]>(`${base(projectId)}/alerts`, { signal }),
  create: (projectId: string, rule: NewAlertRule) =>
    http.request<AlertRule>(`${base(projectId)}/alerts`, { method: 'POST', body: rule }),
  setActive: (projectId: string, alertId: string, isActive: boolean) =>
    isActive
      ? http.request<AlertRule>(`${base(projectId)}/alerts/${enc(alertId)}`, {
          method: 'PATCH',
          body: { isActive: true },
        })
      : http.request<AlertRule>(`${base(projectId)}/alerts/${enc(alertId)}`, { method: 'DELETE' }),
  history: (projectId: string, query: { cursor?: string | undefined; limit?: number }, signal?: AbortSignal) =>
    http.request<{ items: AlertHistoryEntry[]; nextCursor: string | null }>(`${base(projectId)}/alerts/history`, {
      query,
      signal,
    }),
  channels: (projectId: string, signal?: AbortSignal) =>
    http.request<NotificationChannel[]>(`${base(projectId)}/notification-channels`, { signal }),
  createChannel: (projectId: string, channel: NewChannel) =>
    http.request<{ channel: NotificationChannel; secret: string | null }>(`${base(projectId)}/notification-channels`, {
      method: 'POST',
      body: channel,
    }),
  deleteChannel: (projectId: string, channelId: string) =>
    http.request<{ id: string }>(`${base(projectId)}/notification-channels/${enc(channelId)}`, { method: 'DELETE' }),
  thresholdProfiles: (projectId: string, signal?: AbortSignal) =>
    http.request<ThresholdProfile[]>(`${base(projectId)}/threshold-profiles`, { signal }),
};
