import { useState } from 'react';

/**
 * A destructive action in two clicks: "Delete" turns into "Confirm delete" + "Cancel". No modal
 * (keyboard focus stays in the row) and no window.confirm (unstyled, blocks the page).
 */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  disabled,
  accessibleName,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  /** e.g. "Deactivate QA key": what the button acts on, for screen readers. */
  accessibleName?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className="button button-secondary"
        disabled={disabled}
        aria-label={accessibleName}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <span className="button-group">
      <button
        type="button"
        className="button button-danger"
        autoFocus
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button button-ghost" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
