import { useState, type FormEvent } from 'react';
import type { ApiError } from '../api/api-error';
import { Field } from '../components/form-field';
import { ErrorNotice } from '../components/status-views';
import { toApiError } from '../hooks/use-api';
import { useSession } from '../session/session-context';

export function SignInPage() {
  const session = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(session.error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      await session.signIn(email.trim(), password);
    } catch (e) {
      setError(toApiError(e));
      setPending(false);
    }
  };

  return (
    <div className="auth-screen">
      <main className="auth-card">
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true" />
          FrameDeck
        </div>
        <h1>Sign in</h1>
        <p className="muted">Performance heatmaps, insights and alerts for your game telemetry.</p>
        <form onSubmit={(e) => void submit(e)} className="stack" aria-label="Sign in">
          <Field label="Email">
            <input
              type="email"
              name="email"
              autoComplete="username"
              required
              autoFocus
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </Field>
          <Field label="Password">
            <input
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          {error && <ErrorNotice error={error} title={error.status === 401 ? 'Wrong email or password' : undefined} />}
          <button type="submit" className="button button-primary button-block" disabled={pending}>
            {pending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </main>
    </div>
  );
}
