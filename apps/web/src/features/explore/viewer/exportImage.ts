import { LIMITS } from '@cellcloud/contracts/constants';

/** Scale factor so an exported image is at least the docs/product/limits.md#exports minimum PNG height (4200 px). */
export function exportScale(currentHeightPx: number, minHeight: number = LIMITS.pngExportMinHeight): number {
  return Math.max(1, Math.ceil(minHeight / Math.max(1, currentHeightPx)));
}

export async function imageDataToPng(img: ImageData): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = img.width;
  canvas.height = img.height;
  canvas.getContext('2d')!.putImageData(img, 0, 0);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'),
  );
}

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
