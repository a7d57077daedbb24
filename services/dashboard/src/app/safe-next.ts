/**
 * Where to go after sign-in: only a path on this origin. `?next=https://evil.example`,
 * `//evil.example` or `/\evil.example` (which browsers read as another host) fall back to "/",
 * so the sign-in page is never an open redirect.
 */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}
