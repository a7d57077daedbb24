// The end of the alerts page's create / edit forms: the API's refusal, then Save (or Create) and Cancel.
import type { ApiError } from '../api/api-error';
import { ErrorNotice } from '../components/status-views';

export function SaveControls({
  noun,
  editing,
  pending,
  error,
  onCancel,
}: {
  /** What is saved: "rule" → "Save rule", "The rule was not created". */
  noun: string;
  /** Editing an existing one (Save) rather than creating one (Create). */
  editing: boolean;
  pending: boolean;
  error: ApiError | undefined;
  onCancel?: (() => void) | undefined;
}) {
  return (
    <>
      {error && <ErrorNotice error={error} title={`The ${noun} was not ${editing ? 'saved' : 'created'}`} />}
      <div className="form-inline">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? 'Saving…' : `${editing ? 'Save' : 'Create'} ${noun}`}
        </button>
        {onCancel && (
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </>
  );
}
