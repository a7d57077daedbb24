import { createHash, randomBytes } from 'node:crypto';

/**
 * A minimal browser for the authorization flow: keeps cookies (per name; Path is ignored, which
 * only ever sends more cookies than a browser would) and never follows redirects by itself, so
 * tests see every hop.
 */
export class Browser {
  readonly cookies = new Map<string, string>();

  async fetch(
    url: string,
    init: { method?: string; form?: Record<string, string | string[]>; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(init.form)) {
        for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
      }
      body = params.toString();
    }
    const res = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { res, text: await res.text(), location: res.headers.get('location') ?? undefined };
  }

  /** Follows redirects from `url` until a page answers (2xx/4xx) or `stopAt` is reached. */
  async follow(url: string, stopAt: string, init?: Parameters<Browser['fetch']>[1]) {
    let current = url;
    let answer = await this.fetch(current, init);
    for (let hops = 0; hops < 10; hops++) {
      if (!answer.location) return { url: current, ...answer };
      current = new URL(answer.location, current).toString();
      if (current.startsWith(stopAt)) return { url: current, ...answer };
      answer = await this.fetch(current);
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The value of a hidden input (or the first input) named `name` in a server-rendered page. */
export function inputValue(html: string, name: string): string | undefined {
  const match = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html);
  return match?.[1];
}

/** The action of the page's form. */
export function formAction(html: string): string {
  const match = /<form[^>]*action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form in page:\n${html}`);
  return match[1]!;
}
