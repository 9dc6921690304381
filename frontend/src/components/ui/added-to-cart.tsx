import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { CART_AT_LIMIT_MESSAGE } from '@/lib/use-offer-choice';
import { Alert } from './feedback';
import panel from './offer-panel.module.css';

export interface AddedToCartProps {
  /** What the last "In den Warenkorb" put in; null before the first. */
  added: { took: number; wanted: number; what: string } | null;
}

/**
 * The buy panels' answer to "In den Warenkorb", announced politely: what went into the cart,
 * and when the order limits stopped it (fewer than asked for, or nothing at all).
 */
export function AddedToCart({ added }: AddedToCartProps) {
  return (
    <div aria-live="polite" className={panel.added}>
      {added !== null ? (
        <Alert
          tone={added.took > 0 ? 'success' : 'info'}
          title={added.took > 0 ? 'Im Warenkorb' : 'Warenkorb am Limit'}
        >
          <p>
            {added.took === 0
              ? CART_AT_LIMIT_MESSAGE
              : `${added.what} ${added.took === 1 ? 'wurde' : 'wurden'} in den Warenkorb gelegt.${
                  added.took < added.wanted ? ` ${CART_AT_LIMIT_MESSAGE}` : ''
                }`}{' '}
            <Link to={paths.cart}>Zum Warenkorb</Link>
          </p>
        </Alert>
      ) : null}
    </div>
  );
}
