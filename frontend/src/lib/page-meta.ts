import { useEffect } from 'react';
import { env } from '@/config/env';

export interface PageMeta {
  title: string;
  description: string;
  noindex?: boolean;
}

function metaTag(name: string): HTMLMetaElement {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!tag) {
    tag = document.createElement('meta');
    tag.name = name;
    document.head.appendChild(tag);
  }
  return tag;
}

/** Per-page <title> and description; the test pages also ask not to be indexed (DESIGN). */
export function usePageMeta({ title, description, noindex = false }: PageMeta): void {
  useEffect(() => {
    document.title = title === env.productName ? title : `${title} · ${env.productName}`;
    metaTag('description').content = description;
    const robots = document.head.querySelector<HTMLMetaElement>('meta[name="robots"]');
    if (noindex) metaTag('robots').content = 'noindex, nofollow';
    else robots?.remove();
  }, [title, description, noindex]);
}
