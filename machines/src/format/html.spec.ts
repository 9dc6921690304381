import { escapeHtml } from './html.js';

describe('escapeHtml', () => {
  it('makes CMS and buyer text safe in element content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
    expect(escapeHtml('Hafen – 19 Uhr')).toBe('Hafen – 19 Uhr');
  });
});
