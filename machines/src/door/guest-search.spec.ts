import {
  foldForSearch,
  guestIndex,
  MAX_SEARCH_HITS,
  parseGuestQuery,
  searchGuests,
} from './guest-search.js';
import { guestEmailKey } from './ticket-code.js';
import type { DoorTicket } from './door.types.js';

const EVENT = 42;

let next = 0;
const ticket = (holder: string | null, extra: Partial<DoorTicket> = {}): DoorTicket => {
  next += 1;
  return { id: `t${next}`, seat: 1, seats: 1, tier: 'Regulär', holder, status: 'valid', ...extra };
};

const names = (tickets: DoorTicket[]) => tickets.map((t) => t.holder);
const search = (tickets: DoorTicket[], input: string) =>
  searchGuests(guestIndex(EVENT, tickets), parseGuestQuery(EVENT, input));

describe('foldForSearch (rules "Tickets and the door": the guest list at the door)', () => {
  it('folds umlauts both ways, so Müller, Mueller and Muller are one name', () => {
    expect(foldForSearch('Müller')).toBe('muller');
    expect(foldForSearch('Mueller')).toBe('muller');
    expect(foldForSearch('Muller')).toBe('muller');
    expect(foldForSearch('MÜLLER')).toBe('muller');
    expect(foldForSearch('Schröder')).toBe(foldForSearch('Schroeder'));
    expect(foldForSearch('Bär')).toBe(foldForSearch('Baer'));
  });

  it('drops accents and spells out ß and the letters NFKD keeps whole', () => {
    expect(foldForSearch('Strauß')).toBe('strauss');
    // Escaped: only the site's copy may use letters the preloaded fonts leave out.
    expect(foldForSearch('Ren\u00e9 \u00c5str\u00f6m')).toBe('rene astrom');
    expect(foldForSearch('S\u00f8ren \u0141ukasz')).toBe('soren lukasz');
    expect(foldForSearch('\u00c7elik Y\u0131lmaz')).toBe('celik yilmaz');
  });

  it('keeps letters and digits, one space for everything else', () => {
    expect(foldForSearch('  Anna-Lena   O’Brien ')).toBe('anna lena o brien');
    expect(foldForSearch('Zoë 2')).toBe('zo 2');
  });
});

describe('searchGuests', () => {
  const guests = [
    ticket('Karla Kundin', {
      seat: 1,
      seats: 2,
      orderNumber: '1042',
      emailKey: guestEmailKey(EVENT, 'karla@example.org'),
    }),
    ticket('Karla Kundin', {
      seat: 2,
      seats: 2,
      orderNumber: '1042',
      emailKey: guestEmailKey(EVENT, 'karla@example.org'),
    }),
    ticket('Jonas Müller', { orderNumber: '1043' }),
    ticket('Lena Mueller', { orderNumber: '1100' }),
    ticket('Muller Sarah', { orderNumber: '2043', status: 'revoked' }),
    ticket('Aylin Y\u0131lmaz'),
    ticket(null, { orderNumber: '3000' }),
  ];

  it('two letters of a name list the guests; one letter lists nobody yet', () => {
    expect(search(guests, 'k')).toEqual([]);
    expect(names(search(guests, 'ka'))).toEqual(['Karla Kundin', 'Karla Kundin']);
    expect(search(guests, '  ')).toEqual([]);
  });

  it('Müller, Mueller and Muller find each other, revoked tickets included', () => {
    for (const typed of ['Müller', 'Mueller', 'Muller', 'müll', 'MUEL']) {
      expect(names(search(guests, typed)).sort()).toEqual(
        ['Jonas Müller', 'Lena Mueller', 'Muller Sarah'].sort(),
      );
    }
    expect(search(guests, 'sarah muller')[0]).toMatchObject({ status: 'revoked' });
  });

  it('every typed word must be in the name, in any order; a name starting so comes first', () => {
    expect(names(search(guests, 'kundin karla'))).toEqual(['Karla Kundin', 'Karla Kundin']);
    expect(names(search(guests, 'jonas lena'))).toEqual([]);
    // "mul" starts Muller Sarah's first name; in the others it starts the last name: all rank 0.
    expect(names(search(guests, 'yilmaz'))).toEqual(['Aylin Y\u0131lmaz']);
    expect(names(search(guests, 'ar'))).toEqual(['Karla Kundin', 'Karla Kundin', 'Muller Sarah']);
    expect(names(search(guests, 'sa'))).toEqual(['Muller Sarah']);
  });

  it('an order number finds its tickets, the exact number first', () => {
    expect(search(guests, '1042').map((t) => t.seat)).toEqual([1, 2]);
    expect(names(search(guests, '#1043'))).toEqual(['Jonas Müller']);
    expect(names(search(guests, '43'))).toEqual(['Jonas Müller', 'Muller Sarah']);
    expect(search(guests, '1')).toEqual([]);
    expect(search(guests, '3000')).toHaveLength(1);
  });

  it('an e-mail address finds its tickets by key, any case, and only the whole address', () => {
    expect(search(guests, 'Karla@Example.org')).toHaveLength(2);
    expect(search(guests, 'karla@example')).toEqual([]);
    expect(search(guests, 'karla@')).toEqual([]);
    expect(search(guests, '@example.org')).toEqual([]);
    // The key is the event's: another event's list does not know this address.
    const other = guestIndex(43, guests);
    expect(searchGuests(other, parseGuestQuery(43, 'karla@example.org'))).toEqual([]);
  });

  it(`lists at most ${MAX_SEARCH_HITS} tickets`, () => {
    const many = Array.from({ length: 60 }, (_, i) => ticket(`Gast ${i}`));
    expect(search(many, 'gast')).toHaveLength(MAX_SEARCH_HITS);
  });
});

describe('a seat nobody was named for (rules "Named tickets")', () => {
  it('is found by its buyer, while a named seat is found by its holder only', () => {
    const first = ticket('Karla Kundin', { seat: 1, seats: 3 });
    const unnamed = ticket(null, { seat: 2, seats: 3, buyer: 'Karla Kundin' });
    const passedOn = ticket('Bruno Brandt', { seat: 3, seats: 3 });
    const tickets = [first, unnamed, passedOn];
    expect(search(tickets, 'kund').map((t) => t.id)).toEqual([first.id, unnamed.id]);
    expect(search(tickets, 'brandt').map((t) => t.id)).toEqual([passedOn.id]);
    expect(search([ticket(null)], 'kund')).toEqual([]);
  });
});

describe('a guest by company (rules "Named tickets")', () => {
  it('the company beside the name finds its guests, together with a name too', () => {
    const jonas = ticket('Jonas Jansen', { company: 'Hafenkontor GmbH' });
    const lena = ticket('Lena Lotse', { company: 'Hafenkontor GmbH' });
    const other = ticket('Jonas Müller', { company: 'Elbblick AG' });
    const tickets = [jonas, lena, other];
    expect(search(tickets, 'hafenkontor').map((t) => t.id)).toEqual([jonas.id, lena.id]);
    expect(search(tickets, 'jonas hafen').map((t) => t.id)).toEqual([jonas.id]);
    expect(search(tickets, 'elbblick').map((t) => t.id)).toEqual([other.id]);
  });
});
