import { type MerchDetail, type Variant, variantLineName } from '@awhh/machines';
import { IN_STOCK } from '@/lib/availability';
import { BuyPanel } from '@/components/ui/buy-panel';
import { Skeleton } from '@/components/ui/feedback';
import panel from '@/components/ui/offer-panel.module.css';
import styles from './merch-detail.module.css';
import './merch-detail.css';

export interface MerchDetailViewProps {
  item: MerchDetail;
  /** Puts the item into the cart (wired by the route); `variant`: the chosen size. */
  onAdd: (quantity: number, variant?: Variant) => number | void;
}

/** rules "Everything the shop sells": a merch page, `/merch/{slug}`. */
export function MerchDetailView({ item, onAdd }: MerchDetailViewProps) {
  // "2 × AWHH T-Shirt (L)": what went into the cart.
  const describe = (took: number, variant: Variant | undefined) =>
    `${took} × ${variant ? variantLineName(item.name, variant.attributes) : item.name}`;

  return (
    <div className="container merch-detail">
      <div className="merch-detail__media">
        {item.image ? (
          <img src={item.image.src} alt={item.image.alt ?? ''} width={1200} height={800} />
        ) : null}
      </div>
      <div className="merch-detail__info">
        <span className="merch-detail__eyebrow">Merch</span>
        <h1>{item.name}</h1>
        {item.shortDescription ? <p className={styles.lead}>{item.shortDescription}</p> : null}
        <BuyPanel
          item={item}
          label="Kaufen"
          inStock={IN_STOCK.goods}
          variantInStock={IN_STOCK.goods}
          quantityLabel={`Anzahl ${item.name}`}
          describe={describe}
          onAdd={onAdd}
        />
        <h2 className={styles.about}>Details</h2>
        {/* Sanitised on the server (rules "/blog"). */}
        <div className="prose" dangerouslySetInnerHTML={{ __html: item.descriptionHtml }} />
      </div>
    </div>
  );
}

export function MerchDetailSkeleton() {
  return (
    <div className="container merch-detail">
      <Skeleton style={{ aspectRatio: '3 / 2', width: '100%' }} />
      <div>
        <Skeleton height="1rem" width="5rem" style={{ marginBottom: '1rem' }} />
        <Skeleton height="3rem" width="80%" style={{ marginBottom: '1.5rem' }} />
        <div className={panel.panel}>
          <Skeleton height="2.4rem" width="40%" style={{ marginBottom: '1rem' }} />
          <Skeleton height="3rem" width="100%" />
        </div>
      </div>
    </div>
  );
}
