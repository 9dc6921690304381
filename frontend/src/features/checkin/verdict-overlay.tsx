import { useEffect, useRef } from 'react';
import { type DoorVerdict, ticketLabel, verdictText } from '@awhh/machines';
import styles from './door.module.css';

const ICON: Record<'valid' | 'warning' | 'danger', string> = {
  valid: '✓',
  warning: '!',
  danger: '✕',
};

export interface VerdictOverlayProps {
  verdict: DoorVerdict;
  onDismiss: () => void;
}

/**
 * The verdict over the whole screen, readable from a metre away in a dark club
 * (rules "Tickets and the door"): colour, symbol and one word, then the details.
 */
export function VerdictOverlay({ verdict, onDismiss }: VerdictOverlayProps) {
  const text = verdictText(verdict);
  const { tone, title } = text;
  // rules "Named tickets": "Gültig" greets the holder by name, large, the company below;
  // the line under them keeps the tier and seat.
  const holder = verdict.kind === 'valid' && verdict.ticket.holder ? verdict.ticket : null;
  const detail = holder
    ? ticketLabel({ ...holder, holder: null, company: undefined })
    : text.detail;
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Keyboard users continue with Enter; the camera keeps scanning underneath anyway.
    if (document.activeElement === document.body) button.current?.focus({ preventScroll: true });
  }, [verdict]);
  return (
    <div className={`${styles.verdict} ${styles[tone]}`} data-verdict={verdict.kind}>
      <span className={styles.verdictIcon} aria-hidden="true">
        {ICON[tone]}
      </span>
      {/* One long word ("Weitergegeben") must fit a phone's width without breaking. */}
      <p
        className={
          title.split(' ').some((word) => word.length > 11)
            ? `${styles.verdictTitle} ${styles.verdictTitleLong}`
            : styles.verdictTitle
        }
      >
        {title}
      </p>
      {holder ? (
        <p className={styles.verdictHolder} data-testid="verdict-holder">
          <span className={styles.verdictHolderName}>{holder.holder}</span>
          {holder.company ? (
            <span className={styles.verdictHolderCompany}>{holder.company}</span>
          ) : null}
        </p>
      ) : null}
      {detail ? <p className={styles.verdictDetail}>{detail}</p> : null}
      {verdict.kind === 'valid' && verdict.offline ? (
        <p className={styles.verdictOffline} data-testid="verdict-offline">
          Offline geprüft
        </p>
      ) : null}
      <button ref={button} type="button" className={styles.verdictNext} onClick={onDismiss}>
        Weiter scannen
      </button>
    </div>
  );
}
