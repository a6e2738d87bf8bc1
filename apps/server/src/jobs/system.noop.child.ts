import type { ChildMain } from './runner-child-process';

/** Child entry of the diagnostic no-op (tests of the child machinery): sleeps with progress. */
export interface NoopChildInput {
  sleepMs: number;
}

const main: ChildMain<NoopChildInput> = async ({ sleepMs }, io) => {
  const steps = 10;
  for (let i = 1; i <= steps; i++) {
    await new Promise((r) => setTimeout(r, sleepMs / steps));
    io.progress(i / steps, 'noop');
  }
  return { ok: true };
};
export default main;
