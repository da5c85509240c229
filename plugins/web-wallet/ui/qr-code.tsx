/** A QR code of `text`, drawn in the page from the bundled `qrcode` library (nothing leaves the machine). */
import QRCode from 'qrcode';
import { useEffect, useState } from 'preact/hooks';

export function QrCode({ text, label }: { text: string; label: string }) {
  const [source, setSource] = useState('');
  useEffect(() => {
    let live = true;
    QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }).then(
      (svg) => live && setSource(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`),
      () => live && setSource(''),
    );
    return () => {
      live = false;
    };
  }, [text]);
  return source ? <img class="qr" src={source} alt={label} width={220} height={220} /> : null;
}
