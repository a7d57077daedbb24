import { CopyButton } from './copy-button';

/** A secret shown once (an API key, a webhook signing secret), with a copy button. */
export function SecretReveal({
  title,
  explanation,
  value,
  onDone,
}: {
  title: string;
  explanation: string;
  value: string;
  onDone: () => void;
}) {
  return (
    <section className="notice notice-success key-reveal" aria-label={title}>
      <strong>{title}</strong>
      <p>{explanation}</p>
      <div className="key-value-row">
        <code className="key-value" data-testid="secret-value" tabIndex={0}>
          {value}
        </code>
        <CopyButton value={value} />
      </div>
      <button type="button" className="button button-ghost" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}
