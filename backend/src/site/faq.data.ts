/**
 * The questions and answers of /faq as search engines read them (FAQPage JSON-LD).
 * Google only accepts FAQ markup that matches the visible page, so these texts must stay
 * word for word what the /faq page shows.
 */
export interface FaqEntry {
  question: string;
  answer: string;
}

export const FAQ_ENTRIES: readonly FaqEntry[] = [
  {
    question: 'Was ist After Work Hamburg?',
    answer:
      'After Work Hamburg ist eine Eventreihe für Berufstätige: Networking, Musik und Drinks nach Feierabend in exklusiven Locations in Hamburg.',
  },
  {
    question: 'Wie komme ich an Tickets?',
    answer:
      'Wähle auf der Eventseite die Anzahl, lege die Tickets in den Warenkorb und bezahle sicher per Karte, Apple Pay oder Google Pay. Die Bestätigung bekommst du direkt nach der Zahlung.',
  },
  {
    question: 'Gibt es Tickets an der Abendkasse?',
    answer:
      'Nur wenn das Event nicht im Vorverkauf ausverkauft ist. Sicherer ist der Kauf online: Dann ist dein Platz reserviert.',
  },
  {
    question: 'Wie löse ich einen Gutscheincode ein?',
    answer:
      'Gib den Code im Warenkorb ein und tippe auf „Einlösen“. Der Rabatt wird sofort abgezogen und beim Bezahlen noch einmal geprüft.',
  },
  {
    question: 'Kann ich mein Ticket stornieren oder übertragen?',
    answer:
      'Tickets sind übertragbar: Gib sie einfach weiter. Für eine Stornierung schreib uns über das Kontaktformular.',
  },
  {
    question: 'Gibt es einen Dresscode?',
    answer: 'Nein. Die meisten Gäste kommen direkt aus dem Büro – business casual passt immer.',
  },
];
