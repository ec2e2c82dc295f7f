/**
 * The QR code of an otpauth URI, drawn as SVG from uqr's module matrix: no image URL, so the
 * CSP needs neither `data:` nor `blob:` for images.
 */
import { encode } from 'uqr';

export function QrCode({ value, label }: { value: string; label: string }) {
  const { data, size } = encode(value, { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) => row.forEach((dark, x) => {
    if (dark) path += `M${x} ${y}h1v1h-1z`;
  }));
  return (
    <svg class="qr" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} width={size * 5} height={size * 5} shape-rendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
