import { z } from 'zod';

/**
 * The app runs under a Content-Security-Policy without 'unsafe-eval' (issue 12). Zod would probe
 * `Function('')` to decide whether to compile validators, which the browser reports as a CSP
 * violation; jitless mode skips the probe (and the eval) altogether. Imported first by main.tsx.
 */
z.config({ jitless: true });
