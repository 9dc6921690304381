import { Link } from 'react-router';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import { useNextEventLink } from '@/features/events/next-event-link';
import { useCalendarFeedUrl } from '@/lib/site-origin';
import styles from './footer.module.css';

/** rules §2: three columns, then the copyright line with the current year. */
export function Footer() {
  const nextHref = useNextEventLink();
  const calendarHref = useCalendarFeedUrl();
  return (
    <footer className={styles.footer}>
      <div className="container">
        <div className={styles.columns}>
          <div>
            <img
              className={styles.logo}
              src="/logo.svg"
              alt={env.productName}
              width={169}
              height={44}
              loading="lazy"
            />
            <p>{env.productName} – Networking, Music &amp; Drinks in exklusiven Locations.</p>
          </div>
          <nav aria-labelledby="footer-navigation">
            <h2 id="footer-navigation" className={styles.heading}>
              Navigation
            </h2>
            <ul className={styles.list}>
              <li>
                <Link to={nextHref}>Nächstes Event</Link>
              </li>
              <li>
                <a href={calendarHref}>Alle Termine abonnieren</a>
              </li>
              <li>
                <Link to={paths.contact}>Kontakt</Link>
              </li>
            </ul>
          </nav>
          <nav aria-labelledby="footer-legal">
            <h2 id="footer-legal" className={styles.heading}>
              Rechtliches
            </h2>
            <ul className={styles.list}>
              <li>
                <Link to={paths.impressum}>Impressum</Link>
              </li>
              <li>
                <Link to={paths.datenschutz}>Datenschutz</Link>
              </li>
            </ul>
          </nav>
        </div>
        <p className={styles.copyright}>
          © {new Date().getFullYear()} {env.productName}. Alle Rechte vorbehalten.
        </p>
      </div>
    </footer>
  );
}
