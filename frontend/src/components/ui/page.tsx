import type { ReactNode } from 'react';
import './page.css';

export interface PageProps {
  title: ReactNode;
  eyebrow?: string;
  lead?: ReactNode;
  children?: ReactNode;
}

/** The frame of a content page: one h1, an optional lead, then the content. */
export function Page({ title, eyebrow, lead, children }: PageProps) {
  return (
    <div className="container content-page">
      <header className="content-page__header">
        {eyebrow ? <span className="content-page__eyebrow">{eyebrow}</span> : null}
        <h1>{title}</h1>
        {lead ? <p className="content-page__lead">{lead}</p> : null}
      </header>
      {children}
    </div>
  );
}
