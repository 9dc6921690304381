import type { MailMessage, MailSummary } from '@awhh/machines';
import { api } from '@/config/paths';
import { apiGet } from '@/lib/api-client';

export function fetchMails(signal?: AbortSignal): Promise<MailSummary[]> {
  return apiGet<MailSummary[]>(api.mailMessages, signal);
}

export function fetchMail(id: string, signal?: AbortSignal): Promise<MailMessage> {
  return apiGet<MailMessage>(api.mailMessage(id), signal);
}
