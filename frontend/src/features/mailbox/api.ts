import type { MailMessage, MailSummary, MailTestInfo } from '@awhh/machines';
import { api } from '@/config/paths';
import { apiGet } from '@/lib/api-client';

export function fetchMails(signal?: AbortSignal): Promise<MailSummary[]> {
  return apiGet<MailSummary[]>(api.mailMessages, signal);
}

export function fetchMail(id: string, signal?: AbortSignal): Promise<MailMessage> {
  return apiGet<MailMessage>(api.mailMessage(id), signal);
}

/** rules "Tickets and the door": the embedded door code, shown beside the test mails. */
export const MAIL_TEST_INFO_URL = '/api/mail-test';

export function fetchMailTestInfo(signal?: AbortSignal): Promise<MailTestInfo> {
  return apiGet<MailTestInfo>(MAIL_TEST_INFO_URL, signal);
}
