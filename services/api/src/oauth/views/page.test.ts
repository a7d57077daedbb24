import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { html } from './html.js';
import { pageHeaders, renderPage } from './page.js';

describe('OAuth pages', () => {
  it('serve exactly the stylesheet their Content-Security-Policy hash allows (else browsers drop it)', () => {
    const page = renderPage('Sign in', html`<p>hello</p>`);
    const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    const hash = createHash('sha256').update(styles[0]!).digest('base64');
    expect(pageHeaders()['Content-Security-Policy']).toContain(`style-src 'sha256-${hash}'`);
  });
});
