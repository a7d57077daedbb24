import { useState } from 'react';

/** Copies `value` to the clipboard and says so (announced to screen readers). */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      // Clipboard access can be refused (permissions, insecure origin): the value stays selectable.
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2500);
  };
  return (
    <>
      <button type="button" className="button button-secondary" onClick={() => void copy()}>
        {state === 'copied' ? 'Copied' : label}
      </button>
      <span className="sr-only" role="status" aria-live="polite">
        {state === 'copied'
          ? 'Copied to the clipboard'
          : state === 'failed'
            ? 'Copy failed: select the value and copy it'
            : ''}
      </span>
    </>
  );
}
