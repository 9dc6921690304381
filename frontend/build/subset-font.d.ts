// subset-font ships no types; the options this project passes (see its README).
declare module 'subset-font' {
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: {
      targetFormat?: 'woff2' | 'woff' | 'truetype' | 'sfnt';
      keepFeatures?: string[];
      variationAxes?: Record<string, number | { min: number; max: number; default?: number }>;
      preserveNameIds?: number[];
      noLayoutClosure?: boolean;
    },
  ): Promise<Buffer>;
}
