import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { CART_STORAGE_KEY, COUPON_STORAGE_KEY, type RetentionPeriods } from '@awhh/machines';
import { operator } from '@/config/operator';
import { paths } from '@/config/paths';
import { apiGet } from '@/lib/api-client';
import { dataSource, sections } from '@/lib/data-source';
import { staticMeta } from '@/lib/page-head';
import { Deferred } from '@/components/ui/deferred';
import { Loading, Skeleton } from '@/components/ui/feedback';
import { Page } from '@/components/ui/page';
import styles from './text-page.module.css';

export const handle = staticMeta('Datenschutz', 'Wie After Work Hamburg mit deinen Daten umgeht.');

/** Here rather than in config/paths.ts, which every page loads: only this page asks for it. */
const PRIVACY_API = '/api/privacy';

// The periods come from the server's configuration, which the daily erasure job applies:
// the page states what the site really does (docs/privacy.md).
export function loader({ request }: LoaderFunctionArgs) {
  const source = dataSource();
  return sections({
    periods: source.privacy
      ? source.privacy(request.signal)
      : apiGet<RetentionPeriods>(PRIVACY_API, request.signal),
  });
}

/** "1 Tag", "90 Tage". */
function days(n: number): string {
  return n === 1 ? '1 Tag' : `${n} Tage`;
}

/** "nach 1 Tag", "nach 90 Tagen". */
function afterDays(n: number): string {
  return n === 1 ? 'nach 1 Tag' : `nach ${n} Tagen`;
}

export function RetentionList({ periods }: { periods: RetentionPeriods }) {
  const afterEvent = days(periods.personalDataDaysAfterEvent);
  return (
    <ul>
      <li>
        Nicht bezahlte Bestellungen (Zahlung abgebrochen oder abgelaufen): E-Mail-Adresse und Name
        löschen wir {afterDays(periods.unpaidCheckoutDays)}.
      </li>
      <li>
        Bezahlte Bestellungen und Tickets: E-Mail-Adresse, Name und die Namen auf den Tickets
        löschen wir {afterEvent} nach der letzten Veranstaltung der Bestellung (Bestellungen ohne
        Veranstaltung {afterEvent} nach der Zahlung). Artikel und Beträge bleiben ohne diese Angaben
        erhalten.
      </li>
      <li>
        Einlass: Die Gerätenamen, mit denen Tickets am Einlass gescannt wurden, löschen wir{' '}
        {afterEvent} nach dem Scan.
      </li>
      <li>
        Kopien unserer Mails, die unser Server aufbewahrt, löschen wir {afterEvent} nach dem
        Versand.
      </li>
      <li>Kontaktformular: Nachrichten löschen wir {afterDays(periods.contactMessageDays)}.</li>
      <li>
        Warteliste: Einträge löschen wir am Tag nach der Veranstaltung, Einträge für Artikel ohne
        Datum {afterEvent} nach der Eintragung; wer sich austrägt, ist sofort gelöscht.
      </li>
    </ul>
  );
}

/** Describes what the site really does (rules "Privacy"); keep it in step with the code. */
export function Component() {
  const { periods } = useLoaderData<typeof loader>();
  const o = operator;
  return (
    <Page title="Datenschutzerklärung">
      <div className={styles.text}>
        <h2>1. Verantwortlicher</h2>
        <p>
          {o.name}, {o.street}, {o.city}, E-Mail: <a href={`mailto:${o.email}`}>{o.email}</a>.
          Weitere Angaben im <Link to={paths.impressum}>Impressum</Link>.
        </p>

        <h2>2. Keine Tracker, keine Cookies, keine Drittanbieter im Browser</h2>
        <p>
          Diese Website lädt alle Inhalte – auch Schriften und Bilder – von unserem eigenen Server.
          Es gibt keine Analyse- oder Werbedienste, keine Social-Media-Plugins und keine Cookies.
          Deshalb brauchen wir kein Cookie-Banner.
        </p>

        <h2>3. Warenkorb im lokalen Speicher deines Browsers</h2>
        <p>
          Dein Warenkorb und ein eingelöster Gutschein werden ausschließlich im lokalen Speicher
          (Local Storage) deines Browsers abgelegt (Schlüssel „{CART_STORAGE_KEY}“ und „
          {COUPON_STORAGE_KEY}“), damit sie beim nächsten Besuch und in anderen Tabs erhalten
          bleiben. Diese Daten verlassen deinen Browser erst, wenn du zur Kasse gehst. Du kannst sie
          jederzeit löschen, indem du den Warenkorb leerst oder die Websitedaten im Browser
          entfernst. Rechtsgrundlage ist § 25 Abs. 2 Nr. 2 TDDDG (vom Nutzer gewünschter Dienst).
        </p>

        <h2>4. Bestellung und Zahlung</h2>
        <p>
          Wenn du bestellst, übermitteln wir die Artikel deines Warenkorbs und einen eingelösten
          Gutschein an unseren Server. Dort werden Preise und Verfügbarkeit geprüft und die Tickets
          für die Dauer der Zahlung (bis zu 30 Minuten) reserviert. Für die Zahlung wirst du zu
          Stripe (Stripe Payments Europe Ltd., Dublin, Irland) weitergeleitet; Karten- und
          Zahlungsdaten gibst du nur dort ein, wir erhalten sie nicht. Stripe teilt uns das Ergebnis
          der Zahlung, deine E-Mail-Adresse und deinen Namen mit.
        </p>
        <p>
          Bezahlte Bestellungen (Artikel, Beträge, Gutschein, E-Mail-Adresse und Name) speichern wir
          in unserer Datenbank und legen sie in unserem Shopsystem WooCommerce an, das auf unserem
          eigenen Server betrieben wird. Rechtsgrundlage ist Art. 6 Abs. 1 lit. b DSGVO (Vertrag).
          In unserer Datenbank löschen wir die Angaben zu deiner Person nach den Fristen unter
          „Speicherdauer“; im Shopsystem bewahren wir die Bestellung gemäß handels- und
          steuerrechtlichen Pflichten auf (bis zu 10 Jahre).
        </p>

        <h2>5. Kontaktformular</h2>
        <p>
          Nachrichten über das <Link to={paths.contact}>Kontaktformular</Link> (Name,
          E-Mail-Adresse, Nachricht, Zeitpunkt) speichern wir in unserer Datenbank, um deine Anfrage
          zu beantworten. Zum Schutz vor Missbrauch begrenzen wir die Anzahl der Nachrichten je
          IP-Adresse. Rechtsgrundlage ist deine Einwilligung (Art. 6 Abs. 1 lit. a DSGVO), die du
          jederzeit widerrufen kannst. Wir löschen die Nachricht nach der Frist unter
          „Speicherdauer“.
        </p>

        <h2>6. Speicherdauer</h2>
        <p>
          Personenbezogene Daten speichern wir nur so lange, wie wir sie brauchen (Art. 5 Abs. 1
          lit. e DSGVO). Unser Server löscht sie täglich nach diesen Fristen:
        </p>
        <Deferred
          resolve={periods}
          fallback={
            <Loading label="Fristen werden geladen">
              <Skeleton height="8rem" />
            </Loading>
          }
        >
          {(value) => <RetentionList periods={value} />}
        </Deferred>

        <h2>7. Server-Logdateien</h2>
        <p>
          Beim Aufruf der Website verarbeitet unser Server technisch notwendige Daten: IP-Adresse,
          Datum und Uhrzeit, aufgerufene Adresse, Statuscode, übertragene Datenmenge und
          Browserkennung. Sie dienen dem sicheren Betrieb und der Fehlersuche (Art. 6 Abs. 1 lit. f
          DSGVO) und werden nach spätestens 14 Tagen gelöscht.
        </p>

        <h2>8. Deine Rechte</h2>
        <p>
          Du hast das Recht auf Auskunft, Berichtigung, Löschung, Einschränkung der Verarbeitung,
          Datenübertragbarkeit und Widerspruch sowie das Recht, dich bei einer Aufsichtsbehörde zu
          beschweren, etwa beim Hamburgischen Beauftragten für Datenschutz und Informationsfreiheit.
          Schreib uns dazu an <a href={`mailto:${o.email}`}>{o.email}</a>; auf Wunsch löschen wir
          sofort alles, was wir zu deiner E-Mail-Adresse gespeichert haben.
        </p>
      </div>
    </Page>
  );
}
