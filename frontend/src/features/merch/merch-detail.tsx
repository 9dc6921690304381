import { useState } from 'react';
import { type MerchDetail, type Variant, variantLineName } from '@awhh/machines';
import { choiceLegend, useOfferChoice, variantOptions } from '@/lib/use-offer-choice';
import { useHydrated } from '@/lib/use-hydrated';
import { Button } from '@/components/ui/button';
import { AddedToCart, type AddedToCartProps } from '@/components/ui/added-to-cart';
import { Skeleton } from '@/components/ui/feedback';
import { Price } from '@/components/ui/price';
import { QuantityStepper } from '@/components/ui/quantity-stepper';
import { VariantChoice } from '@/components/ui/variant-choice';
import { stockLabel } from './availability';
import panel from '@/components/ui/offer-panel.module.css';
import styles from './merch-detail.module.css';
import './merch-detail.css';

export interface MerchDetailViewProps {
  item: MerchDetail;
  /** Puts the item into the cart (wired by the route); `variant`: the chosen size. */
  onAdd: (quantity: number, variant?: Variant) => number | void;
}

const sizeOptions = (variants: readonly Variant[]) =>
  variantOptions(variants, (v) => stockLabel(v.availability, v.available));

/** rules "Everything the shop sells": a merch page, `/merch/{slug}`. */
export function MerchDetailView({ item, onAdd }: MerchDetailViewProps) {
  const hydrated = useHydrated();
  const choice = useOfferChoice(item);
  const { offer, variant } = choice;
  const [added, setAdded] = useState<AddedToCartProps['added']>(null);
  const soldOut = offer.availability === 'sold_out';
  const buyable = !soldOut && (!choice.variable || variant !== undefined);

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
        <section className={panel.panel} aria-label="Kaufen">
          <p className={panel.price}>
            <Price price={offer.price} regularPrice={offer.regularPrice} />
          </p>
          <p
            className={`${panel.availability} ${soldOut ? panel.soldOut : offer.availability === 'few_left' ? panel.few : ''}`}
          >
            {stockLabel(offer.availability, offer.available)}
          </p>
          {buyable ? (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                const took = onAdd(choice.quantity, variant) ?? choice.quantity;
                const name = variant ? variantLineName(item.name, variant.attributes) : item.name;
                setAdded({ took, wanted: choice.quantity, what: `${took} × ${name}` });
              }}
            >
              {choice.variable ? (
                <VariantChoice
                  disabled={!hydrated}
                  legend={choiceLegend(item.variants)}
                  options={sizeOptions(item.variants)}
                  value={variant?.id ?? null}
                  onChange={(id) => {
                    choice.choose(id);
                    setAdded(null);
                  }}
                />
              ) : null}
              <div className={panel.row}>
                <span className={panel.label}>Anzahl</span>
                <QuantityStepper
                  disabled={!hydrated}
                  label={`Anzahl ${item.name}`}
                  value={choice.quantity}
                  min={1}
                  max={choice.max}
                  onChange={(n) => {
                    choice.setQuantity(n);
                    setAdded(null);
                  }}
                />
                {choice.limitNote ? <span className={panel.label}>{choice.limitNote}</span> : null}
              </div>
              {/* Enabled once the page is hydrated: before, a click would do nothing. */}
              <Button type="submit" block disabled={!hydrated}>
                In den Warenkorb
              </Button>
            </form>
          ) : (
            <Button block disabled>
              Ausverkauft
            </Button>
          )}
          <AddedToCart added={added} />
        </section>
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
