import { useState, type FormEvent } from 'react';
import { mapsApi, type GameMap, type MapUpload } from '../api/maps.api';
import { Link } from '../app/router';
import { AsyncView } from '../components/async-view';
import { ConfirmButton } from '../components/confirm-button';
import { DataTable } from '../components/data-table';
import { Field } from '../components/form-field';
import { formatDateTime, formatNumber } from '../components/format';
import { PageHeader, Panel } from '../components/page-header';
import { EmptyState, ErrorNotice } from '../components/status-views';
import { useAction, useApi } from '../hooks/use-api';
import { EMPTY_BOUNDS, validateMapDraft, type BoundsDraft } from './map-draft';

export function MapsPage({ projectId }: { projectId: string }) {
  const maps = useApi((signal) => mapsApi.list(projectId, signal), [projectId]);
  return (
    <>
      <PageHeader
        title="Maps"
        description="A map is a top-down image plus the world coordinates its edges stand for; heatmaps are drawn on it."
      />
      <div className="stack-lg">
        <UploadMapForm projectId={projectId} onUploaded={maps.reload} />
        <Panel title="Maps of this project">
          <AsyncView resource={maps} loadingLabel="Loading maps…">
            {(list) => <MapTable projectId={projectId} maps={list} onChanged={maps.reload} />}
          </AsyncView>
        </Panel>
      </div>
    </>
  );
}

function UploadMapForm({ projectId, onUploaded }: { projectId: string; onUploaded: () => void }) {
  const [name, setName] = useState('');
  const [mapId, setMapId] = useState('');
  const [image, setImage] = useState<File | undefined>();
  const [bounds, setBounds] = useState<BoundsDraft>(EMPTY_BOUNDS);
  const [invalid, setInvalid] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const upload = useAction((u: MapUpload) => mapsApi.upload(projectId, u));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // NOTE: read now: React clears currentTarget once the handler yields at the first await.
    const form = event.currentTarget;
    setDone(undefined);
    const problem = validateMapDraft(name, mapId, image, bounds);
    setInvalid(problem);
    if (problem || !image) return;
    const optional = (v: string) => (v.trim() === '' ? undefined : Number(v));
    const created = await upload.run({
      name: name.trim(),
      mapId: mapId.trim(),
      image,
      worldMinX: Number(bounds.worldMinX),
      worldMinY: Number(bounds.worldMinY),
      worldMaxX: Number(bounds.worldMaxX),
      worldMaxY: Number(bounds.worldMaxY),
      worldMinZ: optional(bounds.worldMinZ),
      worldMaxZ: optional(bounds.worldMaxZ),
    });
    if (created) {
      setDone(`Map “${created.name}” uploaded.`);
      setName('');
      setMapId('');
      setImage(undefined);
      setBounds(EMPTY_BOUNDS);
      form.reset();
      onUploaded();
    }
  };

  const boundField = (key: keyof BoundsDraft, label: string) => (
    <Field label={label}>
      <input
        name={key}
        inputMode="decimal"
        value={bounds[key]}
        onChange={(e) => setBounds((b) => ({ ...b, [key]: e.target.value }))}
      />
    </Field>
  );

  return (
    <Panel title="Upload a map">
      <form onSubmit={(e) => void submit(e)} className="stack" aria-label="Upload a map" noValidate>
        <div className="form-grid">
          <Field label="Name">
            <input name="name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Dust Canyon" />
          </Field>
          <Field label="Map ID" hint="The map_id your game sends with each event.">
            <input
              name="mapId"
              value={mapId}
              maxLength={255}
              onChange={(e) => setMapId(e.target.value)}
              placeholder="dust_canyon"
            />
          </Field>
          <Field label="Image (PNG, JPEG or WebP)" hint="Top-down; its top edge is world max Y.">
            <input
              name="image"
              type="file"
              accept="image/png,image/jpeg,image/webp"
              onChange={(e) => setImage(e.target.files?.[0])}
            />
          </Field>
        </div>
        <fieldset>
          <legend>World bounds (the coordinates the image's edges stand for)</legend>
          <div className="form-grid bounds-grid">
            {boundField('worldMinX', 'Min X (left edge)')}
            {boundField('worldMaxX', 'Max X (right edge)')}
            {boundField('worldMinY', 'Min Y (bottom edge)')}
            {boundField('worldMaxY', 'Max Y (top edge)')}
            {boundField('worldMinZ', 'Min Z (optional)')}
            {boundField('worldMaxZ', 'Max Z (optional)')}
          </div>
        </fieldset>
        {invalid && (
          <div className="notice notice-error" role="alert">
            <strong>Check the form</strong>
            <p>{invalid}</p>
          </div>
        )}
        {upload.error && <ErrorNotice error={upload.error} title="The map was not uploaded" />}
        {done && (
          <div className="notice notice-success" role="status">
            <strong>{done}</strong>
          </div>
        )}
        <button type="submit" className="button button-primary" disabled={upload.pending}>
          {upload.pending ? 'Uploading…' : 'Upload map'}
        </button>
      </form>
    </Panel>
  );
}

function MapTable({ projectId, maps, onChanged }: { projectId: string; maps: GameMap[]; onChanged: () => void }) {
  const remove = useAction((mapId: string) => mapsApi.remove(projectId, mapId));
  const removeMap = async (mapId: string) => {
    if (await remove.run(mapId)) onChanged();
  };
  return (
    <>
      {remove.error && <ErrorNotice error={remove.error} title="The map was not deleted" />}
      <DataTable
        caption="Maps of this project, newest first"
        rows={maps}
        rowKey={(m) => m.id}
        empty={<EmptyState title="No maps yet">Upload one above.</EmptyState>}
        columns={[
          {
            header: 'Map',
            cell: (m) => (
              <div className="map-cell">
                <img src={m.imageUrl} alt="" width={48} height={48} loading="lazy" className="map-thumb" />
                <div>
                  <Link to={`/projects/${projectId}/heatmap?mapId=${encodeURIComponent(m.mapId)}`}>{m.name}</Link>
                  <div>
                    <code className="muted small">{m.mapId}</code>
                  </div>
                </div>
              </div>
            ),
          },
          {
            header: 'World bounds (X, Y)',
            cell: (m) =>
              `${formatNumber(m.worldMinX, 0)}…${formatNumber(m.worldMaxX, 0)}, ${formatNumber(m.worldMinY, 0)}…${formatNumber(m.worldMaxY, 0)}`,
          },
          { header: 'Image', cell: (m) => `${m.imageWidth} × ${m.imageHeight}` },
          { header: 'Uploaded', cell: (m) => formatDateTime(m.createdAt) },
          {
            header: 'Actions',
            cell: (m) => (
              <ConfirmButton
                label="Delete"
                confirmLabel="Confirm delete"
                accessibleName={`Delete ${m.name}`}
                disabled={remove.pending}
                onConfirm={() => void removeMap(m.mapId)}
              />
            ),
          },
        ]}
      />
      <p className="muted small">Deleting a map removes its record; its image and its events are kept.</p>
    </>
  );
}
