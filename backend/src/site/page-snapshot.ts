import { formatLongDate, formatTime, type EventDetail, type MerchDetail } from '@awhh/machines';
import { escapeHtml } from './html-head.js';

function fact(term: string, value: string): string {
  return `<div><dt>${term}</dt><dd>${escapeHtml(value)}</dd></div>`;
}

/**
 * The first screen of an event page as EventDetailView renders it
 * (frontend/src/features/events/event-detail.tsx, global classes of event-detail.css):
 * eyebrow, title, image with its intrinsic size, date, time and venue. The image is the
 * largest element of that screen; in the HTML it paints before any script runs (LCP),
 * and React's first commit replaces it with the same markup and dimensions. The ticket
 * panel and the description follow with React: they never move what is shown here.
 */
export function eventSnapshot(event: EventDetail): string {
  const date = formatLongDate(event.startsAt);
  const time = formatTime(event.startsAt);
  const facts = [fact('Datum', date ?? 'Termin folgt')];
  if (time) facts.push(fact('Beginn', time));
  if (event.venue) facts.push(fact('Location', event.venue));
  const image = event.image
    ? '<div class="event-detail__hero">' +
      `<img src="${escapeHtml(event.image.src)}" alt="${escapeHtml(event.image.alt ?? '')}" width="1280" height="720">` +
      '</div>'
    : '';
  return [
    '<div class="container event-detail"><div>',
    `<span class="event-detail__eyebrow">${event.past ? 'Vergangenes Event' : 'Event'}</span>`,
    `<h1>${escapeHtml(event.name)}</h1>`,
    image,
    `<dl class="event-detail__facts">${facts.join('')}</dl>`,
    '</div></div>',
  ].join('');
}

/**
 * The first screen of a merch page as MerchDetailView renders it
 * (frontend/src/features/merch/merch-detail.tsx, global classes of merch-detail.css):
 * the product image with its intrinsic size, eyebrow and title. The buying panel and the
 * description follow with React, below what is shown here.
 */
export function merchSnapshot(item: MerchDetail): string {
  const image = item.image
    ? `<img src="${escapeHtml(item.image.src)}" alt="${escapeHtml(item.image.alt ?? '')}" width="1200" height="800">`
    : '';
  return [
    '<div class="container merch-detail">',
    `<div class="merch-detail__media">${image}</div>`,
    '<div class="merch-detail__info">',
    '<span class="merch-detail__eyebrow">Merch</span>',
    `<h1>${escapeHtml(item.name)}</h1>`,
    '</div></div>',
  ].join('');
}

/**
 * The frame of a content page (frontend/src/components/ui/page.tsx, global classes of
 * page.css) with its title: /cart shows its heading before the script runs. The lines
 * live in the browser's storage, so the server never guesses them (SPEC §4).
 */
export function contentPageSnapshot(title: string): string {
  return (
    '<div class="container content-page"><header class="content-page__header">' +
    `<h1>${escapeHtml(title)}</h1></header></div>`
  );
}
