import { isEngineError } from '../errors';
import { UsageError } from './args';

/**
 * Runs a CLI verb and exits with its code: a UsageError prints the message and `usage` (exit 2),
 * an engine error its code and message (exit 1), anything else its stack (exit 1).
 */
export function runCli(verb: Promise<number>, usage: string): void {
  verb.then(
    (code) => process.exit(code),
    (e: unknown) => {
      if (e instanceof UsageError) {
        process.stderr.write(`${e.message}\n\n${usage}\n`);
        process.exit(2);
      }
      if (isEngineError(e)) {
        process.stderr.write(`error [${e.code}]: ${e.message}\n`);
        process.exit(1);
      }
      process.stderr.write(`error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
