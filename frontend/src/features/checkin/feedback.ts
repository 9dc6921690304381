import type { VerdictTone } from '@awhh/machines';

// Sound and vibration with each verdict (rules "Tickets and the door": at a glance, in a
// loud club): one high beep for "Gültig", two middle ones for "Bereits eingecheckt", one
// long low tone for the rest. Browsers allow audio only after a tap, so the unlock button
// and the first scan start the audio context.

const PATTERNS: Record<VerdictTone, { beeps: [number, number][]; vibrate: number[] }> = {
  valid: { beeps: [[1320, 0.12]], vibrate: [80] },
  warning: {
    beeps: [
      [660, 0.14],
      [660, 0.14],
    ],
    vibrate: [120, 80, 120],
  },
  danger: { beeps: [[220, 0.45]], vibrate: [350, 100, 350] },
};

let audio: AudioContext | null = null;

/** Creates the audio context inside a user gesture, where browsers allow it. */
export function unlockAudio(): void {
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
  } catch {
    audio = null;
  }
}

function beep(context: AudioContext, frequency: number, start: number, duration: number) {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = 'square';
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.25, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + duration);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(start);
  oscillator.stop(start + duration + 0.02);
}

export function signalVerdict(tone: VerdictTone): void {
  const pattern = PATTERNS[tone];
  try {
    // Not every browser vibrates (iOS never), and some refuse without a recent tap.
    navigator.vibrate?.(pattern.vibrate);
  } catch {
    // Vibration is a nicety.
  }
  if (!audio || audio.state !== 'running') return;
  let at = audio.currentTime;
  for (const [frequency, duration] of pattern.beeps) {
    beep(audio, frequency, at, duration);
    at += duration + 0.08;
  }
}
