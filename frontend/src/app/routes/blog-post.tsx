import { data, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { dataSource } from '@/lib/data-source';
import type { RouteHandle } from '@/lib/page-head';
import { blogPostPageMeta } from '@/lib/structured-data';
import { BlogArticle } from '@/features/blog/blog-posts';

export async function loader({ params, request }: LoaderFunctionArgs) {
  const post = await dataSource().post(params.slug ?? '', request.signal);
  if (!post) throw data('Beitrag nicht gefunden', { status: 404 });
  return { post };
}

type LoaderData = Awaited<ReturnType<typeof loader>>;

export const handle: RouteHandle<LoaderData> = {
  meta: ({ data, origin }) => (data ? blogPostPageMeta(origin, data.post) : null),
};

export function Component() {
  const { post } = useLoaderData<typeof loader>();
  return <BlogArticle post={post} />;
}
