import { Link } from 'react-router';
import type { MerchSummary } from '@awhh/machines';
import { paths } from '@/config/paths';
import { availabilityLabel, IN_STOCK } from '@/lib/availability';
import { hasPriceRange } from '@/lib/offer';
import { Price } from '@/components/ui/price';
import styles from './merch-card.module.css';

export function MerchCard({ item }: { item: MerchSummary }) {
  const soldOut = item.availability === 'sold_out';
  return (
    <article className={soldOut ? `${styles.card} ${styles.soldOutCard}` : styles.card}>
      <div className={styles.media}>
        {item.image ? (
          <img
            src={item.image.src}
            alt={item.image.alt ?? ''}
            loading="lazy"
            width={600}
            height={400}
          />
        ) : null}
      </div>
      <div className={styles.body}>
        <h3 className={styles.title}>
          <Link to={paths.merch(item.slug)}>{item.name}</Link>
        </h3>
        {item.shortDescription ? <p className={styles.meta}>{item.shortDescription}</p> : null}
        <div className={styles.footer}>
          <Price
            className={styles.price}
            price={item.price}
            regularPrice={item.regularPrice}
            from={hasPriceRange(item.variants)}
          />
          {item.availability === 'available' ? null : (
            <span className={soldOut ? `${styles.status} ${styles.soldOut}` : styles.status}>
              {availabilityLabel(item.availability, item.available, IN_STOCK.goods)}
            </span>
          )}
        </div>
      </div>
    </article>
  );
}

/** rules "Everything the shop sells": merch is listed on `/`. */
export function MerchGrid({ items }: { items: MerchSummary[] }) {
  return (
    <ul className={styles.grid}>
      {items.map((item) => (
        <li key={item.id} className={styles.item}>
          <MerchCard item={item} />
        </li>
      ))}
    </ul>
  );
}
