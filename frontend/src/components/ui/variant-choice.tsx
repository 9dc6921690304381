import { useId } from 'react';
import { Price } from './price';
import styles from './variant-choice.module.css';

export interface VariantOption {
  id: number;
  /** The option values: "VIP", "L". */
  label: string;
  /** Left out when every option costs the same: the price above the group says it once. */
  price?: number;
  regularPrice?: number;
  /** Availability in words: "Ausverkauft", "Nur noch 4 verfügbar". */
  note: string;
  tone: 'normal' | 'few' | 'soldOut';
}

export interface VariantChoiceProps {
  /** Named after the attribute: "Ticket wählen", "Größe wählen". */
  legend: string;
  options: readonly VariantOption[];
  value: number | null;
  onChange: (id: number) => void;
  /** Until the page is hydrated: a choice made before would not reach the page's state. */
  disabled?: boolean;
}

/**
 * rules "Everything the shop sells": a variable product is bought as one of its variants.
 * A native radio group (arrow keys move the choice). Each radio is named by its option
 * ("VIP") and described by its price, a sale's regular price and what is left, so a screen
 * reader says "VIP, 49,00 € statt 59,00 €, Nur noch 4 verfügbar". Sold-out options stay
 * visible but cannot be chosen.
 */
export function VariantChoice({
  legend,
  options,
  value,
  onChange,
  disabled = false,
}: VariantChoiceProps) {
  const name = useId();
  const id = (optionId: number, part: string) => `${name}-${optionId}-${part}`;
  return (
    <fieldset className={styles.choice} disabled={disabled}>
      <legend className={styles.legend}>{legend}</legend>
      <div className={styles.options}>
        {options.map((option) => {
          const soldOut = option.tone === 'soldOut';
          return (
            <label
              key={option.id}
              className={soldOut ? `${styles.option} ${styles.disabled}` : styles.option}
            >
              <input
                className={styles.radio}
                type="radio"
                name={name}
                value={option.id}
                checked={value === option.id}
                disabled={soldOut}
                onChange={() => onChange(option.id)}
                aria-labelledby={id(option.id, 'label')}
                aria-describedby={
                  option.price === undefined
                    ? id(option.id, 'note')
                    : `${id(option.id, 'price')} ${id(option.id, 'note')}`
                }
              />
              <span id={id(option.id, 'label')} className={styles.label}>
                {option.label}
              </span>
              {option.price === undefined ? null : (
                <span id={id(option.id, 'price')} className={styles.price}>
                  <Price price={option.price} regularPrice={option.regularPrice} />
                </span>
              )}
              <span
                id={id(option.id, 'note')}
                className={`${styles.note} ${option.tone === 'normal' ? '' : styles[option.tone]}`}
              >
                {option.note}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
