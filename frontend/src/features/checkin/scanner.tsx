import { useEffect, useRef, useState } from 'react';
import { isRepeatScan, type LastScan } from '@awhh/machines';
import { loadQrDecoder } from './qr-decoder';
import styles from './door.module.css';

/** Frames decoded per second at most: enough for a code held up, light on a phone's battery. */
const FRAME_INTERVAL_MS = 120;

type CameraState = 'starting' | 'running' | 'denied' | 'missing' | 'failed';

const CAMERA_TEXT: Record<Exclude<CameraState, 'running'>, string> = {
  starting: 'Kamera startet …',
  denied:
    'Kein Zugriff auf die Kamera. Erlaube ihn in den Browser-Einstellungen – oder gib den Code unten ein.',
  missing: 'Keine Kamera gefunden. Gib den Code unten ein.',
  failed: 'Die Kamera ließ sich nicht starten. Gib den Code unten ein.',
};

export interface ScannerProps {
  onCode: (text: string) => void;
}

/**
 * The rear camera, read continuously (rules "Tickets and the door"): a bad code never
 * stops it, and the same code is handled once while it stays in view.
 */
export function Scanner({ onCode }: ScannerProps) {
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<CameraState>('starting');
  const handler = useRef(onCode);
  useEffect(() => {
    handler.current = onCode;
  }, [onCode]);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer = 0;
    let last: LastScan | null = null;

    const read = async (decode: (v: HTMLVideoElement) => Promise<string[]>) => {
      if (stopped) return;
      const element = video.current;
      if (element && element.readyState >= 2) {
        try {
          const now = Date.now();
          for (const text of await decode(element)) {
            const repeat = isRepeatScan(last, text, now);
            last = { text, at: now };
            if (!repeat) handler.current(text);
          }
        } catch {
          // One unreadable frame is no reason to stop reading the next.
        }
      }
      if (!stopped) timer = window.setTimeout(() => void read(decode), FRAME_INTERVAL_MS);
    };

    (async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setState('missing');
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: 'environment', width: { ideal: 1280 }, height: { ideal: 720 } },
          audio: false,
        });
      } catch (error) {
        const name = error instanceof DOMException ? error.name : '';
        setState(
          name === 'NotAllowedError' || name === 'SecurityError'
            ? 'denied'
            : name === 'NotFoundError' || name === 'OverconstrainedError'
              ? 'missing'
              : 'failed',
        );
        return;
      }
      if (stopped) {
        stream.getTracks().forEach((track) => track.stop());
        return;
      }
      const element = video.current!;
      element.srcObject = stream;
      await element.play().catch(() => undefined);
      setState('running');
      const decoder = await loadQrDecoder().catch(() => null);
      if (!decoder) {
        setState('failed');
        return;
      }
      void read((v) => decoder.decode(v));
    })();

    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  return (
    <div className={styles.camera}>
      <video
        ref={video}
        className={styles.video}
        muted
        playsInline
        autoPlay
        aria-label="Kamerabild zum Scannen der Ticket-Codes"
      />
      <div className={styles.viewfinder} aria-hidden="true" />
      {state !== 'running' ? (
        <p className={styles.cameraNote} role="status">
          {CAMERA_TEXT[state]}
        </p>
      ) : null}
    </div>
  );
}
