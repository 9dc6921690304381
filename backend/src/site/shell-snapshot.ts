import { escapeHtml, SITE_NAME } from './html-head.js';

/**
 * The header as React first renders it (frontend/src/app/shell/header.tsx, unscrolled, no
 * badge, the next-event link still /next), with the same global classes
 * (frontend/src/app/shell/header.css). It paints with the stylesheet, before the entry
 * script arrives; the first React commit replaces it with identical markup, so nothing
 * moves. SPEC §2: "AWHH" text before scrolling.
 */
export function shellSnapshot(path: string): string {
  const link = (href: string, text: string) => {
    // NavLink marks the current page (the next-event link matches /next only: `end`).
    const active = path === href;
    const cls = active ? 'site-header__link site-header__link--active' : 'site-header__link';
    const current = active ? ' aria-current="page"' : '';
    return `<a${current} class="${cls}" href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
  };
  return [
    '<header class="site-header" data-scrolled="false">',
    '<div class="container site-header__inner">',
    '<a class="site-header__brand" href="/">',
    '<span class="site-header__wordmark">AWHH</span>',
    `<span class="visually-hidden"> – ${escapeHtml(SITE_NAME)}, zur Startseite</span>`,
    '</a>',
    '<nav aria-label="Hauptnavigation" class="site-header__nav">',
    link('/next', 'Nächstes Event'),
    link('/cart', 'Warenkorb'),
    '</nav>',
    '</div>',
    '</header>',
  ].join('');
}

/**
 * The page frame of frontend/src/app/shell/shell.tsx (global classes of shell.css): skip
 * link, header and the main element, holding `content` (trusted markup built from escaped
 * values). The footer is left to React: it starts below the first screen.
 */
export function frameSnapshot(path: string, content = ''): string {
  // SPEC §2: top padding on every page except the index page.
  const mainClass = path === '/' ? 'site-main' : 'site-main site-main--padded';
  return [
    '<a class="site-skip" href="#main">Zum Inhalt springen</a>',
    shellSnapshot(path),
    `<main id="main" tabindex="-1" class="${mainClass}">${content}</main>`,
  ].join('');
}

const EMPTY_ROOT = /<div id="root"><\/div>/;

/** Puts the snapshot into the template's empty root; templates without one stay as they are. */
export function withShellSnapshot(html: string, path: string, content = ''): string {
  return html.replace(EMPTY_ROOT, () => `<div id="root">${frameSnapshot(path, content)}</div>`);
}
