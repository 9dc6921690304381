import { jsonForScript, renderHead } from './head';

// The head every server-rendered page gets from its route's `handle.meta` (rules "Rendering").
const ORIGIN = 'https://awhh.example';

describe('page head (server)', () => {
  it('names the page with the site, canonical and Open Graph as absolute URLs', () => {
    const head = renderHead(
      { title: 'Kontakt', description: 'Schreib uns.', canonical: '/contact' },
      ORIGIN,
    );
    expect(head).toContain('<title>Kontakt | After Work Hamburg</title>');
    expect(head).toContain(`<link rel="canonical" href="${ORIGIN}/contact">`);
    expect(head).toContain(`<meta property="og:url" content="${ORIGIN}/contact">`);
    expect(head).toContain('<meta name="twitter:card" content="summary">');
    expect(head).not.toContain('name="robots"');
  });

  it('keeps test and personal pages out of the index, without canonical', () => {
    const head = renderHead(
      { title: 'Dein Ticket', description: 'x', canonical: null, noindex: true },
      ORIGIN,
    );
    expect(head).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(head).not.toContain('canonical');
  });

  it('escapes CMS text in tags and attributes', () => {
    const head = renderHead({ title: '"><script>alert(1)</script>', description: 'x' }, ORIGIN);
    expect(head).not.toContain('<script>alert(1)');
    expect(head).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('keeps JSON-LD parseable while no text can close the script block', () => {
    const value = { name: '</script><script>alert(1)</script> & \u2028' };
    const head = renderHead({ title: 'T', description: 'x', jsonLd: [value] }, ORIGIN);
    expect(head).not.toContain('</script><script>alert');
    const json = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(head)![1]!;
    expect(JSON.parse(json)).toEqual(value);
    expect(jsonForScript('<')).toBe('"\\u003c"');
  });
});
