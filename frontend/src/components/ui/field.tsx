import type { FocusEvent, ReactNode } from 'react';
import styles from './field.module.css';

/** The class of a text input, textarea or select inside a `Field`. */
export const controlClass = styles.control;

/**
 * What ties a control to its error message for assistive technology: invalid while the
 * message shows, described by it.
 */
export function controlProps(id: string, error: string | undefined) {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  } as const;
}

/**
 * An onBlur that marks a field as touched (its error may show), except when the focus moves
 * to a submit button: the message appearing would push the button away under the pointer
 * between press and release, and the click would be lost. The submit shows every error.
 */
export function touchOnBlur(touch: () => void) {
  return (event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget;
    if (next instanceof HTMLButtonElement && next.type === 'submit') return;
    touch();
  };
}

function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={`${id}-error`} className={styles.error}>
      {error}
    </p>
  ) : null;
}

export interface FieldProps {
  /** The control's id (from `useId`), for the label and the message. */
  id: string;
  label: string;
  /** The message shown below the control; none while the value is fine or untouched. */
  error?: string;
  /** The control, with `controlProps(id, error)` and `controlClass`. */
  children: ReactNode;
  className?: string;
}

/** A label above its control and the control's error below it. */
export function Field({ id, label, error, children, className }: FieldProps) {
  return (
    <div className={className ? `${styles.field} ${className}` : styles.field}>
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldError id={id} error={error} />
    </div>
  );
}

export interface ConsentFieldProps {
  id: string;
  checked: boolean;
  onChange(checked: boolean): void;
  error?: string;
  /** Checked or the form cannot be sent (the checkout's terms). */
  required?: boolean;
  /** The consent's wording, with its link to the privacy page. */
  children: ReactNode;
  className?: string;
}

/** A consent checkbox with its wording beside it and its error below. */
export function ConsentField({
  id,
  checked,
  onChange,
  error,
  required,
  children,
  className,
}: ConsentFieldProps) {
  return (
    <div className={className}>
      <div className={styles.consent}>
        <input
          {...controlProps(id, error)}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          required={required}
        />
        <label htmlFor={id}>{children}</label>
      </div>
      <FieldError id={id} error={error} />
    </div>
  );
}
