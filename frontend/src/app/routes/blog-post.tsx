import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { BlogPost } from '@awhh/machines';
import { isNotFound } from '@/lib/api-client';
import { usePageMeta } from '@/lib/page-meta';
import { Deferred } from '@/components/ui/deferred';
import { Loading } from '@/components/ui/feedback';
import { fetchPost } from '@/features/blog/api';
import { BlogArticle, BlogArticleSkeleton } from '@/features/blog/blog-posts';
import { ErrorPage } from '../error-page';

export function loader({ params, request }: LoaderFunctionArgs) {
  return { post: fetchPost(params.slug ?? '', request.signal) };
}

function Loaded({ post }: { post: BlogPost }) {
  usePageMeta({ title: post.title, description: post.excerpt });
  return <BlogArticle post={post} />;
}

export function Component() {
  const { post } = useLoaderData<typeof loader>();
  return (
    <Deferred
      resolve={post}
      fallback={
        <Loading label="Beitrag wird geladen">
          <BlogArticleSkeleton />
        </Loading>
      }
      renderError={(error) => (isNotFound(error) ? <ErrorPage status={404} /> : null)}
    >
      {(loaded) => <Loaded post={loaded} />}
    </Deferred>
  );
}
