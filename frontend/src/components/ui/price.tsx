import { formatEuro, toCents } from '@awhh/machines';
import styles from './price.module.css';

export interface PriceProps {
  price: number;
  /** Above `price`: on sale, the regular price is shown struck through (rules "Everything the shop sells"). */
  regularPrice?: number;
  /** "ab 35,00 €": the variants on offer cost different amounts. */
  from?: boolean;
  className?: string;
}

/** A price in de-DE euros; a sale shows the regular price struck through, read as "statt …". */
export function Price({ price, regularPrice, from = false, className }: PriceProps) {
  const onSale = !from && regularPrice !== undefined && toCents(regularPrice) > toCents(price);
  return (
    <span className={className}>
      {from ? 'ab ' : null}
      {formatEuro(price)}
      {onSale ? (
        <>
          {' '}
          <s className={styles.regular}>
            <span className="visually-hidden">statt </span>
            {formatEuro(regularPrice)}
          </s>
        </>
      ) : null}
    </span>
  );
}
