import { operator } from '@/config/operator';
import { staticMeta } from '@/lib/page-head';
import { Page } from '@/components/ui/page';
import styles from './text-page.module.css';

export const handle = staticMeta(
  'Impressum',
  'Impressum von After Work Hamburg: Anbieter und Kontakt.',
);

/** Operator details come from the build configuration (VITE_OPERATOR_*, see README). */
export function Component() {
  const o = operator;
  const placeholder = Object.values(o).some((v) => v.includes('Beispiel'));
  return (
    <Page title="Impressum">
      <div className={styles.text}>
        {placeholder ? (
          <p className={styles.notice}>
            Hinweis: Einige Angaben sind Platzhalter („Beispiel“) und müssen vor dem Betrieb
            konfiguriert werden.
          </p>
        ) : null}
        <h2>Angaben gemäß § 5 DDG</h2>
        <address>
          {o.name}
          <br />
          {o.street}
          <br />
          {o.city}
        </address>
        <h2>Vertreten durch</h2>
        <p>{o.representative}</p>
        <h2>Kontakt</h2>
        <p>
          Telefon: {o.phone}
          <br />
          E-Mail: <a href={`mailto:${o.email}`}>{o.email}</a>
        </p>
        <h2>Registereintrag</h2>
        <p>{o.register}</p>
        <h2>Umsatzsteuer-ID</h2>
        <p>Umsatzsteuer-Identifikationsnummer gemäß § 27a UStG: {o.vatId}</p>
        <h2>Verantwortlich für den Inhalt nach § 18 Abs. 2 MStV</h2>
        <p>
          {o.representative}, {o.street}, {o.city}
        </p>
        <h2>Verbraucherstreitbeilegung</h2>
        <p>
          Wir sind nicht bereit oder verpflichtet, an Streitbeilegungsverfahren vor einer
          Verbraucherschlichtungsstelle teilzunehmen.
        </p>
      </div>
    </Page>
  );
}
