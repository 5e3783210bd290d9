import type { Download } from './client';

/** Hands a fetched file to the browser as a download through a short-lived blob URL. */
export function saveDownload({ blob, filename }: Download, fallbackName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename ?? fallbackName;
  anchor.rel = 'noopener';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
