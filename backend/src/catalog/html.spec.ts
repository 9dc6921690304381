import { decodeEntities, plainText, sanitizeRichText } from './html.js';

describe('HTML from the CMS', () => {
  it('decodes the references WordPress writes into titles, as a browser reads them', () => {
    expect(decodeEntities('Jazz &#038; Gin &#8211; Spezial')).toBe('Jazz & Gin – Spezial');
    expect(decodeEntities('&bdquo;Moin&ldquo; &amp; Gr&uuml;&szlig;e')).toBe('„Moin“ & Grüße');
    expect(decodeEntities('Caf&eacute; Fran&ccedil;ais &#x1F37B;')).toBe('Café Français 🍻');
    // Not references: left alone rather than guessed.
    expect(decodeEntities('AT&T &unknown; 5 & 6')).toBe('AT&T &unknown; 5 & 6');
  });

  it('gives plain text for cards and excerpts; WordPress "[…]" becomes "…"', () => {
    expect(plainText('<p>So war der Abend an der Elbe [&hellip;]</p>\n')).toBe(
      'So war der Abend an der Elbe …',
    );
    expect(plainText('<p>Drinks<script>alert(1)</script> &amp; Musik</p>')).toBe('Drinks & Musik');
  });

  it('keeps rich text safe: no scripts, no handlers, no javascript: links', () => {
    const html = sanitizeRichText(
      '<h1>T</h1><p onclick="x()">A</p><a href="javascript:alert(1)">b</a><script>y()</script>',
    );
    expect(html).toBe('<h2>T</h2><p>A</p><a rel="noopener noreferrer">b</a>');
  });
});
