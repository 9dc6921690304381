import type { ReactNode } from 'react';
import styles from './page.module.css';

export interface PageProps {
  title: ReactNode;
  eyebrow?: string;
  lead?: ReactNode;
  children?: ReactNode;
}

/** The frame of a content page: one h1, an optional lead, then the content. */
export function Page({ title, eyebrow, lead, children }: PageProps) {
  return (
    <div className={`container ${styles.page}`}>
      <header className={styles.header}>
        {eyebrow ? <span className={styles.eyebrow}>{eyebrow}</span> : null}
        <h1>{title}</h1>
        {lead ? <p className={styles.lead}>{lead}</p> : null}
      </header>
      {children}
    </div>
  );
}
