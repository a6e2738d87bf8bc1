/** Display helpers of the files screens. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** A message key sent by the server in the `files.` namespace, without the namespace prefix. */
export const filesKey = (key: string) => (key.startsWith('files.') ? key.slice('files.'.length) : key);
