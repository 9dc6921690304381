import type { MailMessage, MailSummary, MailTestInfo } from '@awhh/machines';
import { apiGet } from '@/lib/api-client';

export const mailboxApi = {
  messages: '/api/mail-test/messages',
  message: (id: string) => `/api/mail-test/messages/${encodeURIComponent(id)}`,
  attachment: (id: string, index: number) =>
    `/api/mail-test/messages/${encodeURIComponent(id)}/attachments/${index}`,
} as const;

export function fetchMails(signal?: AbortSignal): Promise<MailSummary[]> {
  return apiGet<MailSummary[]>(mailboxApi.messages, signal);
}

export function fetchMail(id: string, signal?: AbortSignal): Promise<MailMessage> {
  return apiGet<MailMessage>(mailboxApi.message(id), signal);
}

/** rules "Tickets and the door": the embedded door code, shown beside the test mails. */
export const MAIL_TEST_INFO_URL = '/api/mail-test';

export function fetchMailTestInfo(signal?: AbortSignal): Promise<MailTestInfo> {
  return apiGet<MailTestInfo>(MAIL_TEST_INFO_URL, signal);
}
