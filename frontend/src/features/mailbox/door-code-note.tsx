import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { fetchMailTestInfo } from './api';
import styles from './mailbox.module.css';

/** The door page; paths.ts is shared by every feature, so the link is named here. */
const DOOR_PATH = '/einlass';

/**
 * rules "Tickets and the door": while everything runs on the embedded defaults, the
 * generated door code is shown here, so a test purchase can be checked in at /einlass.
 * A configured CHECKIN_CODE is never shown (the API answers null).
 */
export function DoorCodeNote() {
  const [code, setCode] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchMailTestInfo(controller.signal).then(
      (info) => setCode(info.checkinCode),
      () => setCode(null),
    );
    return () => controller.abort();
  }, []);
  if (!code) return null;
  return (
    <p className={styles.doorCode}>
      Türcode für <Link to={DOOR_PATH}>/einlass</Link>: <code>{code}</code>
    </p>
  );
}
