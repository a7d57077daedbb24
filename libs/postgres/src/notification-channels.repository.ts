import type { Queryable } from './queryable.js';

export type NotificationChannelType = 'webhook' | 'slack';

/** A channel as listed: never its secret. */
export type NotificationChannel = {
  id: string;
  name: string;
  type: NotificationChannelType;
  url: string;
  createdAt: Date;
};

const CHANNEL_COLUMNS = `id, name, type, url, created_at AS "createdAt"`;

export async function insertNotificationChannel(
  db: Queryable,
  input: { projectId: string; name: string; type: NotificationChannelType; url: string; secret: string | null },
): Promise<NotificationChannel> {
  const { rows } = await db.query<NotificationChannel>(
    `INSERT INTO notification_channels (project_id, name, type, url, secret)
     VALUES ($1, $2, $3, $4, $5) RETURNING ${CHANNEL_COLUMNS}`,
    [input.projectId, input.name, input.type, input.url, input.secret],
  );
  return rows[0]!;
}

export async function listNotificationChannels(db: Queryable, projectId: string): Promise<NotificationChannel[]> {
  const { rows } = await db.query<NotificationChannel>(
    `SELECT ${CHANNEL_COLUMNS} FROM notification_channels WHERE project_id = $1 ORDER BY created_at, id`,
    [projectId],
  );
  return rows;
}

/**
 * Deletes a channel; rules stop naming it and its pending deliveries are dropped (cascade).
 * Returns false when the project has no such channel.
 */
export async function deleteNotificationChannel(db: Queryable, projectId: string, channelId: string): Promise<boolean> {
  const result = await db.query(`DELETE FROM notification_channels WHERE id = $1 AND project_id = $2`, [
    channelId,
    projectId,
  ]);
  return result.rowCount === 1;
}
