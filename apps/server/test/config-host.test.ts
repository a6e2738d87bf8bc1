import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@cellcloud/testkit';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';

/**
 * The bind address (HOST, README "Configuration"): loopback by default, so a fresh `npm start`
 * is not reachable from other machines until HOST says so; the container image sets 0.0.0.0.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 3000 }, () => {
      s.end();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

/** Local addresses of the sockets listening on `port`, from /proc/net/tcp and tcp6 (Linux). */
function listeningAddresses(port: number): string[] {
  const out: string[] = [];
  for (const [file, v6] of [
    ['/proc/net/tcp', false],
    ['/proc/net/tcp6', true],
  ] as const) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 4 || f[3] !== '0A') continue; // 0A = LISTEN
      const [hex, portHex] = f[1].split(':');
      if (parseInt(portHex, 16) !== port) continue;
      out.push(v6 ? ipv6(hex) : ipv4(hex));
    }
  }
  return out;
}
const ipv4 = (hex: string) => [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
function ipv6(hex: string): string {
  if (hex === '00000000000000000000000001000000') return '::1';
  if (hex === '00000000000000000000000000000000') return '::';
  if (hex.startsWith('0000000000000000FFFF0000')) return ipv4(hex.slice(24));
  return hex;
}

describe('HOST: the address the API listens on', () => {
  it('defaults to localhost and refuses an empty value, naming the variable', () => {
    expect(loadConfig({}).host).toBe('localhost');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(() => loadConfig({ HOST: ' ' })).toThrow(/HOST: must be an address or host name/);
  });

  // the process does not touch the test database: once, in the PGlite run
  it.skipIf(process.env.CELLCLOUD_TEST_DB === 'postgres')(
    'the API started without HOST answers on loopback only',
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-host-'));
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        CELLCLOUD_DATA_DIR: dataDir,
        IN_PROCESS_WORKER: 'false',
        LOG_LEVEL: 'silent',
      };
      delete env.HOST;
      delete env.DATABASE_URL;
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/entry/api.ts'], {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        await new Promise<void>((resolve, reject) => {
          let out = '';
          child.stdout!.on('data', (b: Buffer) => {
            out += b.toString();
            if (out.includes('CellCloud is running at')) resolve();
          });
          child.on('exit', (code) => reject(new Error(`the API exited with ${code}`)));
        });
        expect(await connects('127.0.0.1', port)).toBe(true);
        const health = await fetch(`http://localhost:${port}/api/health`);
        expect(health.status).toBe(200);
        // what the socket is bound to, read from the kernel's socket table (no traffic to any
        // non-loopback address): every listening socket on the port is a loopback one
        const bound = listeningAddresses(port);
        expect(bound.length).toBeGreaterThan(0);
        for (const a of bound) expect(['127.0.0.1', '::1']).toContain(a);
      } finally {
        if (child.exitCode === null) {
          child.kill('SIGTERM');
          await new Promise((r) => child.once('exit', r));
        }
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
