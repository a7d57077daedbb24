import type { CookieOptions, Request, Response } from 'express';
import { parse } from 'cookie';

/**
 * The dashboard session cookie: httpOnly (no script reads it), SameSite=Lax (not sent on
 * cross-site POSTs), Secure and `__Host-` prefixed when the app origin is https (then it cannot
 * be set by a sibling subdomain or sent in clear).
 */
export class SessionCookie {
  readonly name: string;
  private readonly options: CookieOptions;

  constructor(appOrigin: string) {
    const secure = new URL(appOrigin).protocol === 'https:';
    this.name = secure ? '__Host-fd_session' : 'fd_session';
    this.options = { httpOnly: true, sameSite: 'lax', secure, path: '/' };
  }

  read(req: Request): string | undefined {
    const header = req.get('cookie');
    if (!header) return undefined;
    const value = parse(header)[this.name];
    return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
  }

  write(res: Response, value: string, expiresAt: Date): void {
    res.cookie(this.name, value, { ...this.options, expires: expiresAt });
  }

  clear(res: Response): void {
    res.clearCookie(this.name, this.options);
  }
}
