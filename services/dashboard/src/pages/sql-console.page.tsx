import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { queryApi, type QueryResult } from '../api/query.api';
import { DataTable } from '../components/data-table';
import { SelectField } from '../components/choice-controls';
import { Field } from '../components/form-field';
import { formatNumber } from '../components/format';
import { PageHeader, Panel } from '../components/page-header';
import { EmptyState, ErrorNotice } from '../components/status-views';
import { useAction } from '../hooks/use-api';
import { useSession } from '../session/session-context';

const EXAMPLE = `SELECT event_name, count() AS events, uniqExact(player_id) AS players
FROM events
WHERE timestamp > now() - INTERVAL 7 DAY
GROUP BY event_name
ORDER BY events DESC`;

/** Raw SQL over this project's events (POST /v1/query), for users holding data:admin. */
export function SqlConsolePage({ projectId }: { projectId: string }) {
  const { user } = useSession();
  const [sql, setSql] = useState(EXAMPLE);
  const [limit, setLimit] = useState('100');
  const [result, setResult] = useState<{ data: QueryResult; ms: number } | undefined>();
  const run = useAction((text: string, max: number) => queryApi.run(projectId, text, max));

  if (!user?.scopes.includes('data:admin')) {
    return (
      <>
        <PageHeader title="SQL console" />
        <EmptyState title="The SQL console needs the data:admin permission">
          Raw SQL is limited to accounts allowed data:admin (the same permission as a Full API key).
        </EmptyState>
      </>
    );
  }

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const started = performance.now();
    const data = await run.run(sql, Number(limit));
    if (data) setResult({ data, ms: performance.now() - started });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') void submit();
  };

  return (
    <>
      <PageHeader
        title="SQL console"
        description={
          <>
            Read-only SQL over this project&apos;s <code>events</code> table (ClickHouse dialect). Only this
            project&apos;s rows are visible.
          </>
        }
      />
      <div className="stack-lg">
        <Panel>
          <form onSubmit={(e) => void submit(e)} className="stack" aria-label="SQL query">
            <Field label="Query" hint="Ctrl+Enter runs it.">
              <textarea
                className="sql-editor"
                value={sql}
                spellCheck={false}
                onChange={(e) => setSql(e.target.value)}
                onKeyDown={onKeyDown}
                rows={8}
              />
            </Field>
            <div className="toolbar">
              <SelectField
                label="Row limit"
                value={limit}
                options={['100', '1000', '10000'].map((l) => ({ value: l, label: formatNumber(Number(l)) }))}
                onChange={setLimit}
              />
              <button type="submit" className="button button-primary" disabled={run.pending || !sql.trim()}>
                {run.pending ? 'Running…' : 'Run query'}
              </button>
            </div>
          </form>
        </Panel>
        {run.error && (
          <ErrorNotice
            error={run.error}
            title={run.error.status === 400 ? 'The database rejected the query' : undefined}
          />
        )}
        {result && !run.error && <ResultsTable result={result.data} ms={result.ms} />}
      </div>
    </>
  );
}

function ResultsTable({ result, ms }: { result: QueryResult; ms: number }) {
  const columns = result.rows.length > 0 ? Object.keys(result.rows[0]!) : [];
  return (
    <Panel title="Results">
      <div className="results-meta" role="status">
        <span>
          {formatNumber(result.rowCount)} row{result.rowCount === 1 ? '' : 's'}
        </span>
        <span>{formatNumber(ms)} ms</span>
      </div>
      {columns.length === 0 ? (
        <EmptyState title="No rows" />
      ) : (
        <div className="results-table">
          <DataTable
            caption="Query results"
            rows={result.rows}
            rowKey={(_, i) => String(i)}
            columns={columns.map((name) => ({
              header: name,
              cell: (row: Record<string, unknown>) => renderValue(row[name]),
              align: typeof result.rows[0]![name] === 'number' ? ('right' as const) : undefined,
            }))}
          />
        </div>
      )}
    </Panel>
  );
}

function renderValue(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
