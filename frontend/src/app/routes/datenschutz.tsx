import { Link } from 'react-router';
import { CART_STORAGE_KEY, COUPON_STORAGE_KEY } from '@awhh/machines';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import { staticMeta } from '@/lib/page-head';
import { Page } from '@/components/ui/page';
import styles from './text-page.module.css';

export const handle = staticMeta('Datenschutz', 'Wie After Work Hamburg mit deinen Daten umgeht.');

/** Describes what the site really does (DESIGN "Privacy"); keep it in step with the code. */
export function Component() {
  const o = env.operator;
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
          eigenen Server betrieben wird. Rechtsgrundlage ist Art. 6 Abs. 1 lit. b DSGVO (Vertrag);
          Aufbewahrung gemäß handels- und steuerrechtlichen Pflichten (bis zu 10 Jahre).
        </p>

        <h2>5. Kontaktformular</h2>
        <p>
          Nachrichten über das <Link to={paths.contact}>Kontaktformular</Link> (Name,
          E-Mail-Adresse, Nachricht, Zeitpunkt) speichern wir in unserer Datenbank, um deine Anfrage
          zu beantworten. Zum Schutz vor Missbrauch begrenzen wir die Anzahl der Nachrichten je
          IP-Adresse. Rechtsgrundlage ist deine Einwilligung (Art. 6 Abs. 1 lit. a DSGVO), die du
          jederzeit widerrufen kannst. Wir löschen die Nachricht, wenn sie erledigt ist und keine
          Aufbewahrungspflicht besteht.
        </p>

        <h2>6. Server-Logdateien</h2>
        <p>
          Beim Aufruf der Website verarbeitet unser Server technisch notwendige Daten: IP-Adresse,
          Datum und Uhrzeit, aufgerufene Adresse, Statuscode, übertragene Datenmenge und
          Browserkennung. Sie dienen dem sicheren Betrieb und der Fehlersuche (Art. 6 Abs. 1 lit. f
          DSGVO) und werden nach spätestens 14 Tagen gelöscht.
        </p>

        <h2>7. Deine Rechte</h2>
        <p>
          Du hast das Recht auf Auskunft, Berichtigung, Löschung, Einschränkung der Verarbeitung,
          Datenübertragbarkeit und Widerspruch sowie das Recht, dich bei einer Aufsichtsbehörde zu
          beschweren, etwa beim Hamburgischen Beauftragten für Datenschutz und Informationsfreiheit.
          Schreib uns dazu an <a href={`mailto:${o.email}`}>{o.email}</a>.
        </p>
      </div>
    </Page>
  );
}
