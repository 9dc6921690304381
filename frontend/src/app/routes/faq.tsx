import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import { usePageMeta } from '@/lib/page-meta';
import { Page } from '@/components/ui/page';
import styles from './text-page.module.css';

const FAQ: { q: string; a: ReactNode }[] = [
  {
    q: 'Was ist After Work Hamburg?',
    a: 'Eine Eventreihe für Berufstätige: Networking, Musik und Drinks nach Feierabend – jedes Mal in einer anderen exklusiven Location in Hamburg.',
  },
  {
    q: 'Wer kommt zu den Events?',
    a: 'Menschen aus allen Branchen, die nach der Arbeit neue Kontakte knüpfen und einen entspannten Abend verbringen möchten. Du kannst gern allein kommen – genau dafür sind die Abende gemacht.',
  },
  {
    q: 'Wie bekomme ich Tickets?',
    a: (
      <>
        Wähle ein Event, lege die gewünschte Anzahl Tickets in den Warenkorb und bezahle sicher per
        Karte, Apple Pay oder Google Pay. Das <Link to={paths.next}>nächste Event</Link> findest du
        immer oben im Menü.
      </>
    ),
  },
  {
    q: 'Bekomme ich eine Bestätigung?',
    a: 'Ja. Nach der Zahlung siehst du deine Bestellung sofort auf der Bestätigungsseite, und die Bestätigung kommt zusätzlich per E-Mail.',
  },
  {
    q: 'Kann ich einen Gutschein einlösen?',
    a: 'Ja, im Warenkorb gibt es ein Feld für deinen Gutscheincode. Der Rabatt wird sofort angezeigt und an der Kasse noch einmal geprüft.',
  },
  {
    q: 'Gibt es einen Dresscode?',
    a: 'Business casual passt immer. Komm so, wie du dich nach einem Arbeitstag wohlfühlst.',
  },
  {
    q: 'Kann ich mein Ticket stornieren oder übertragen?',
    a: (
      <>
        Tickets sind übertragbar – gib einfach den Namen der Person durch, die an deiner Stelle
        kommt. Für Fragen zur Stornierung <Link to={paths.contact}>schreib uns</Link>.
      </>
    ),
  },
  {
    q: 'Was passiert, wenn ein Event ausverkauft ist?',
    a: 'Dann zeigt die Eventseite „Ausverkauft“. Tickets werden beim Bezahlen für 30 Minuten reserviert, es wird also nie mehr verkauft, als Plätze da sind.',
  },
];

export function Component() {
  usePageMeta({
    title: 'FAQ',
    description: `Häufige Fragen zu Tickets, Ablauf und Bezahlung bei ${env.productName}.`,
  });
  return (
    <Page title="Häufige Fragen" eyebrow="FAQ">
      <div className={styles.faq}>
        {FAQ.map((item) => (
          <details key={item.q} className={styles.item}>
            <summary>{item.q}</summary>
            <div className={styles.answer}>{item.a}</div>
          </details>
        ))}
      </div>
    </Page>
  );
}
