import fc from 'fast-check';
import {
  berlinIso,
  formatClock,
  formatDateTime,
  formatDayMonth,
  formatLongDate,
  formatNumericDate,
  formatShortDate,
  formatTime,
} from './dates.js';

describe('German dates (rules "Event page": dates in German, Europe/Berlin)', () => {
  const winter = '2026-12-04T18:00:00.000Z';
  const summer = '2026-06-12T17:00:00.000Z';

  it('formats long dates and times in Berlin time', () => {
    expect(formatLongDate(winter)).toBe('Freitag, 4. Dezember 2026');
    expect(formatTime(winter)).toBe('19:00 Uhr');
    expect(formatTime(summer)).toBe('19:00 Uhr');
    expect(formatDateTime(winter)).toBe('Freitag, 4. Dezember 2026, 19:00 Uhr');
  });

  it('formats the short forms of cards and lists', () => {
    expect(formatShortDate(winter)).toBe('04. Dez. 2026');
    expect(formatDayMonth(winter)).toEqual({ day: '04', month: 'Dez.' });
  });

  it('gives null for missing or invalid dates instead of "Invalid Date"', () => {
    for (const value of [null, undefined, '', 'bald']) {
      expect(formatLongDate(value)).toBeNull();
      expect(formatTime(value)).toBeNull();
      expect(formatDayMonth(value)).toBeNull();
    }
  });

  it('writes ISO 8601 with the Berlin offset, winter and summer', () => {
    expect(berlinIso(new Date(winter))).toBe('2026-12-04T19:00:00+01:00');
    expect(berlinIso(new Date(summer))).toBe('2026-06-12T19:00:00+02:00');
  });

  it('berlinIso names the same instant, to the second, for any date', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2040-01-01'), noInvalidDate: true }),
        (d) => {
          expect(Date.parse(berlinIso(d))).toBe(Math.floor(d.getTime() / 1000) * 1000);
        },
      ),
    );
  });

  it('writes every form exactly as Intl de-DE does, at any instant', () => {
    const intl = (options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', ...options });
    const long = intl({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
    const time = intl({ hour: '2-digit', minute: '2-digit' });
    const short = intl({ day: '2-digit', month: 'short', year: 'numeric' });
    const dayMonth = intl({ day: '2-digit', month: 'short' });
    const numeric = intl({ day: '2-digit', month: '2-digit', year: 'numeric' });
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1996-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        (d) => {
          expect(formatLongDate(d)).toBe(long.format(d));
          expect(formatClock(d)).toBe(time.format(d));
          expect(formatTime(d)).toBe(`${time.format(d)} Uhr`);
          expect(formatNumericDate(d)).toBe(numeric.format(d));
          expect(formatShortDate(d)).toBe(short.format(d));
          const parts = dayMonth.formatToParts(d);
          expect(formatDayMonth(d)).toEqual({
            day: parts.find((p) => p.type === 'day')?.value,
            month: parts.find((p) => p.type === 'month')?.value,
          });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
