// Reads QR codes from camera frames: the browser's BarcodeDetector where it exists
// (Android Chrome, Safari), zxing-wasm elsewhere (desktop and Linux Chromium have no
// detector, nor has headless Chromium with a fake camera). Both load only on /einlass.

export interface QrDecoder {
  decode(source: HTMLVideoElement | ImageData): Promise<string[]>;
}

interface BarcodeDetectorLike {
  detect(source: ImageBitmapSource): Promise<{ rawValue: string }[]>;
}

type DetectorConstructor = {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
};

async function nativeDecoder(): Promise<QrDecoder | null> {
  const Detector = (globalThis as { BarcodeDetector?: DetectorConstructor }).BarcodeDetector;
  if (!Detector) return null;
  try {
    if (!(await Detector.getSupportedFormats()).includes('qr_code')) return null;
  } catch {
    return null;
  }
  const detector = new Detector({ formats: ['qr_code'] });
  return {
    async decode(source) {
      const found = await detector.detect(source);
      return found.map((code) => code.rawValue);
    },
  };
}

let frame: { canvas: HTMLCanvasElement; context: CanvasRenderingContext2D } | null = null;

/** The video's current frame as pixels for the wasm reader. */
function pixels(video: HTMLVideoElement): ImageData | null {
  const width = video.videoWidth;
  const height = video.videoHeight;
  if (width === 0 || height === 0) return null;
  if (!frame) {
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) return null;
    frame = { canvas, context };
  }
  if (frame.canvas.width !== width) frame.canvas.width = width;
  if (frame.canvas.height !== height) frame.canvas.height = height;
  frame.context.drawImage(video, 0, 0, width, height);
  return frame.context.getImageData(0, 0, width, height);
}

async function wasmDecoder(): Promise<QrDecoder> {
  const [{ prepareZXingModule, readBarcodes }, { default: wasmUrl }] = await Promise.all([
    import('zxing-wasm/reader'),
    // Served from our own /assets/: the library's default is a CDN, a third-party request
    // the site never makes (rules "Privacy") and one that fails offline at the door.
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  // Fetch and compile now, while the network is there, not at the first scan.
  await prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) =>
        path.endsWith('.wasm') ? wasmUrl : prefix + path,
    },
    fireImmediately: true,
  });
  return {
    async decode(source) {
      const image = source instanceof ImageData ? source : pixels(source);
      if (!image) return [];
      const results = await readBarcodes(image, {
        formats: ['QRCode'],
        tryHarder: true,
        maxNumberOfSymbols: 1,
      });
      return results.filter((r) => r.isValid).map((r) => r.text);
    },
  };
}

let decoder: Promise<QrDecoder> | null = null;

export function loadQrDecoder(): Promise<QrDecoder> {
  decoder ??= nativeDecoder().then((native) => native ?? wasmDecoder());
  decoder.catch(() => {
    decoder = null;
  });
  return decoder;
}
