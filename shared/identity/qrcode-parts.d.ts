/**
 * The two parts of `qrcode` that the enrollment uses, imported by path: the package's main
 * module requires every renderer, and its PNG one brings pngjs (~30 KiB, zlib streams at
 * import) into a function that only ever draws an SVG. Their shapes are @types/qrcode's.
 */
declare module 'qrcode/lib/core/qrcode' {
  export { create } from 'qrcode';
}
declare module 'qrcode/lib/renderer/svg-tag' {
  import type { QRCode, QRCodeToStringOptions } from 'qrcode';
  /** The `<svg>` element of a QR code, as `toString(text, { type: 'svg' })` gives it. */
  export function render(qrData: QRCode, options?: QRCodeToStringOptions): string;
}
