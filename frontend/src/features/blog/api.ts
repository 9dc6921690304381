import type { BlogPost, BlogPostSummary } from '@awhh/machines';
import { api } from '@/config/paths';
import { apiGet } from '@/lib/api-client';

export function fetchPosts(signal?: AbortSignal): Promise<BlogPostSummary[]> {
  return apiGet<BlogPostSummary[]>(api.blog, signal);
}

export function fetchPost(slug: string, signal?: AbortSignal): Promise<BlogPost> {
  return apiGet<BlogPost>(api.blogPost(slug), signal);
}
