import { useId } from 'react';
import { MAX_LINE_QUANTITY } from '@awhh/machines';
import styles from './quantity-stepper.module.css';

export interface QuantityStepperProps {
  value: number;
  onChange: (value: number) => void;
  label: string;
  min?: number;
  max?: number;
  disabled?: boolean;
}

export function QuantityStepper({
  value,
  onChange,
  label,
  min = 1,
  max = MAX_LINE_QUANTITY,
  disabled,
}: QuantityStepperProps) {
  const id = useId();
  return (
    <div className={styles.stepper} role="group" aria-label={label}>
      <button
        type="button"
        className={styles.step}
        onClick={() => onChange(value - 1)}
        disabled={disabled || value <= min}
        aria-label="Weniger"
      >
        −
      </button>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        className={styles.value}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={value}
        disabled={disabled}
        onChange={(e) => {
          const n = Number.parseInt(e.target.value, 10);
          if (Number.isFinite(n)) onChange(Math.min(Math.max(n, min), max));
        }}
      />
      <button
        type="button"
        className={styles.step}
        onClick={() => onChange(value + 1)}
        disabled={disabled || value >= max}
        aria-label="Mehr"
      >
        +
      </button>
    </div>
  );
}
