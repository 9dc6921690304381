import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { apiGet } from '@/lib/api-client';
import styles from './mailbox.module.css';

/** The organizer's page and the code's endpoint; named here, as paths.ts is every page's. */
const ORGANIZER_PATH = '/veranstalter';
export const ORGANIZER_CODE_URL = '/api/organizer/code';

/**
 * rules "The organizer": beside the door code, the organizer code the demo shop generated,
 * so a test purchase can be followed on /veranstalter. Only while the test mailbox is open;
 * none when ORGANIZER_CODE is set or the shop's WordPress accounts sign in.
 */
export function OrganizerCodeNote() {
  const [code, setCode] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    apiGet<{ code: string | null }>(ORGANIZER_CODE_URL, controller.signal).then(
      (info) => setCode(info.code),
      () => setCode(null),
    );
    return () => controller.abort();
  }, []);
  if (!code) return null;
  return (
    <p className={styles.doorCode}>
      Veranstaltercode für <Link to={ORGANIZER_PATH}>/veranstalter</Link>: <code>{code}</code>
    </p>
  );
}
