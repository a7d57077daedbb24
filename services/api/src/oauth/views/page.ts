import { createHash } from 'node:crypto';
import { html, Html } from './html.js';

// Small, self-contained pages: no scripts, no external assets, one inline stylesheet allowed
// by its hash in the Content-Security-Policy.
const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1f24}
main{max-width:28rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin:0 0 1rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #8a929b;border-radius:4px}
fieldset{border:1px solid #d0d5db;border-radius:4px;margin:1rem 0;padding:.5rem 1rem}
fieldset label{font-weight:400;margin:.35rem 0}
.hint{color:#4d5661;font-size:.9rem}
.error{color:#a4000f;background:#fde8ea;padding:.5rem .75rem;border-radius:4px}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{font:inherit;padding:.5rem 1.25rem;border-radius:4px;border:1px solid #1a56c2;background:#1a56c2;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1a56c2}
button:focus-visible,input:focus-visible{outline:3px solid #f5a524;outline-offset:2px}
code{background:#eef0f3;padding:0 .25rem;border-radius:3px}
`;
const STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
// NOTE: built outside the html`` template: the browser hashes the element's text exactly, and a
// formatter indenting the template would add whitespace the hash above does not cover (the
// pages rendered unstyled that way).
const STYLE_ELEMENT = new Html(`<style>${STYLE}</style>`);

export function renderPage(title: string, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title} · FrameDeck</title>
        ${STYLE_ELEMENT}
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html> `.value;
}

/**
 * Headers for every sign-in, consent and error page: never framed (clickjacking a consent
 * button is the classic attack), never cached, never sniffed.
 * `formTargets` are the origins a form on the page may end up at: after the last step the
 * authorization server redirects to the client, and browsers apply form-action to redirects.
 */
export function pageHeaders(formTargets: readonly string[] = []): Record<string, string> {
  const formAction = ["'self'", ...formTargets].join(' ');
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy':
      `default-src 'none'; style-src ${STYLE_SOURCE}; form-action ${formAction}; ` +
      `frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}
