import { AppError } from '../../errors';

/**
 * Client file names are only labels (storage keys are `raw/<uploadId>/<index>`), but a name that
 * tries to climb directories or hides control characters is refused with a clear message.
 * Relative folder paths ("outs/filtered/matrix.mtx.gz", from a folder upload) are allowed.
 */
export function checkFileName(name: string): string {
  const parts = name.split('/');
  const bad =
    !name ||
    name.length > 255 ||
    name.startsWith('/') ||
    name.includes('\\') ||
    /[\u0000-\u001f\u007f]/.test(name) ||
    parts.some((p) => p === '..' || p === '.' || p === '') ||
    /^[A-Za-z]:/.test(name);
  if (bad) throw new AppError('VALIDATION_FAILED', { name: name.slice(0, 80) }, 'files.fileName.invalid');
  return name;
}
