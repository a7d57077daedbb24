import { describe, expect, it } from 'vitest';
import { html } from './html.js';

describe('html', () => {
  it('escapes interpolated text, including attribute quotes', () => {
    const name = `<script>alert("x")</script>' onload='x`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#39; onload=&#39;x">' +
        '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#39; onload=&#39;x</p>',
    );
  });

  it('nests fragments and lists without escaping them twice, and drops empty values', () => {
    const items = ['a&b', 'c'].map((t) => html`<li>${t}</li>`);
    expect(
      html`<ul>
          ${items}
        </ul>
        ${false}${undefined}${null}`.value.replace(/\s+/g, ''),
    ).toBe('<ul><li>a&#38;b</li><li>c</li></ul>'); // whitespace: prettier lays out html`` templates
  });
});
