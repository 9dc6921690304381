import { useEffect, useState } from 'react';
import { Link, NavLink, useNavigation } from 'react-router';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import { useCartCount } from '@/features/cart/cart-count';
import { useNextEventLink } from '@/features/events/next-event-link';
import './header.css';

/** rules §9: the header changes once the page is scrolled more than 10 pixels. */
export const SCROLL_THRESHOLD_PX = 10;

function useScrolledPast(threshold: number): boolean {
  // Unscrolled in the server's HTML and while hydrating; the effect reads the real position.
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > threshold);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [threshold]);
  return scrolled;
}

function navClass({ isActive }: { isActive: boolean }) {
  return isActive ? 'site-header__link site-header__link--active' : 'site-header__link';
}

/**
 * rules §2: the item count beside "Warenkorb". A component of its own: the saved cart is read
 * after hydration, and React re-renders only this when the count differs from the server's.
 */
function CartBadge() {
  const count = useCartCount();
  return count > 0 ? (
    <span className="site-header__badge" data-testid="cart-badge">
      {count}
      <span className="visually-hidden"> Artikel</span>
    </span>
  ) : null;
}

export function Header() {
  const scrolled = useScrolledPast(SCROLL_THRESHOLD_PX);
  const nextHref = useNextEventLink();
  const navigation = useNavigation();

  return (
    <header
      className={scrolled ? 'site-header site-header--scrolled' : 'site-header'}
      data-scrolled={scrolled}
    >
      <div className={'container site-header__inner'}>
        <Link to={paths.home} className="site-header__brand">
          {/* rules §2: the text before scrolling, the logo image after. */}
          {scrolled ? (
            <img
              className="site-header__logo"
              src="/logo.svg"
              alt={env.productName}
              width={153}
              height={40}
            />
          ) : (
            <span className="site-header__wordmark">AWHH</span>
          )}
          {/* The visible text starts the accessible name (WCAG 2.5.3). */}
          <span className="visually-hidden">
            {scrolled ? '' : ` – ${env.productName}`}, zur Startseite
          </span>
        </Link>
        <nav aria-label="Hauptnavigation" className="site-header__nav">
          <NavLink to={nextHref} className={navClass} end>
            Nächstes Event
          </NavLink>
          <NavLink to={paths.cart} className={navClass}>
            Warenkorb
            <CartBadge />
          </NavLink>
        </nav>
      </div>
      {navigation.state === 'loading' ? (
        <span className="site-header__progress" aria-hidden="true" />
      ) : null}
    </header>
  );
}
