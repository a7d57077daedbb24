import { useEffect, useState } from 'react';
import { Field } from '../components/form-field';
import type { ParamCheck } from './param-checks';

type Props = {
  label: string;
  value: string;
  check: ParamCheck;
  onCommit: (value: string) => void;
  placeholder?: string;
};

/**
 * A number kept in the URL, typed as text: what is typed is shown at once, but reaches the URL
 * (and the API) only when it is empty or a valid value, so "-" on the way to "-12.5" is neither
 * sent nor reported as an invalid link.
 */
export function NumberParamField({ label, value, check, onCommit, placeholder }: Props) {
  const [draft, setDraft] = useState(value);
  // The URL changed elsewhere (a link, a reset): show its value.
  useEffect(() => setDraft(value), [value]);
  return (
    <Field label={label} className="field-narrow">
      <input
        type="text"
        inputMode="decimal"
        value={draft}
        placeholder={placeholder}
        aria-invalid={draft !== '' && check(draft) !== undefined}
        onChange={(e) => {
          const next = e.target.value.trim();
          setDraft(e.target.value);
          if (next === '' || check(next) === undefined) onCommit(next);
        }}
      />
    </Field>
  );
}
