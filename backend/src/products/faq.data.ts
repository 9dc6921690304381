import type { FaqEntry } from '@awhh/machines';

/**
 * The questions and answers of /faq, served at GET /api/faq for the page and used for
 * its FAQPage JSON-LD: one source, because Google only accepts FAQ markup that matches
 * the visible page word for word.
 */
export const FAQ_ENTRIES: readonly FaqEntry[] = [
  {
    question: 'Was ist After Work Hamburg?',
    answer:
      'Eine Eventreihe für Berufstätige: Networking, Musik und Drinks nach Feierabend – jedes Mal in einer anderen exklusiven Location in Hamburg.',
  },
  {
    question: 'Wer kommt zu den Events?',
    answer:
      'Menschen aus allen Branchen, die nach der Arbeit neue Kontakte knüpfen und einen entspannten Abend verbringen möchten. Du kannst gern allein kommen – genau dafür sind die Abende gemacht.',
  },
  {
    question: 'Wie bekomme ich Tickets?',
    answer:
      'Wähle ein Event, lege die gewünschte Anzahl Tickets in den Warenkorb und bezahle sicher per Karte, Apple Pay oder Google Pay. Das nächste Event findest du immer oben im Menü.',
    link: { text: 'Zum nächsten Event', href: '/next' },
  },
  {
    question: 'Bekomme ich eine Bestätigung?',
    answer:
      'Ja. Nach der Zahlung siehst du deine Bestellung sofort auf der Bestätigungsseite, und die Bestätigung kommt zusätzlich per E-Mail.',
  },
  {
    question: 'Kann ich einen Gutschein einlösen?',
    answer:
      'Ja, im Warenkorb gibt es ein Feld für deinen Gutscheincode. Der Rabatt wird sofort angezeigt und an der Kasse noch einmal geprüft.',
  },
  {
    question: 'Gibt es einen Dresscode?',
    answer: 'Business casual passt immer. Komm so, wie du dich nach einem Arbeitstag wohlfühlst.',
  },
  {
    question: 'Kann ich mein Ticket stornieren oder übertragen?',
    answer:
      'Tickets sind übertragbar – gib einfach den Namen der Person durch, die an deiner Stelle kommt. Für Fragen zur Stornierung schreib uns.',
    link: { text: 'Zum Kontaktformular', href: '/contact' },
  },
  {
    question: 'Was passiert, wenn ein Event ausverkauft ist?',
    answer:
      'Dann zeigt die Eventseite „Ausverkauft“. Tickets werden beim Bezahlen für 30 Minuten reserviert, es wird also nie mehr verkauft, als Plätze da sind.',
  },
];
