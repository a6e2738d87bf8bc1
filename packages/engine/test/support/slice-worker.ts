import { parentPort, workerData } from 'node:worker_threads';

/**
 * Worker for worker-pool.test.ts: sums i² over each slice [from, to) it is handed, posting a
 * progress message then the result; exits without answering on the slice starting at
 * `workerData.dieAt`.
 */
const port = parentPort!;
const dieAt = (workerData as { dieAt?: number }).dieAt;
port.on('message', ({ from, to }: { from: number; to: number }) => {
  if (from === dieAt) process.exit(1);
  let sum = 0;
  for (let i = from; i < to; i++) sum += i * i;
  port.postMessage({ tick: 1 });
  port.postMessage({ done: true, from, sum });
});
