import { readFileSync } from 'node:fs';
import path from 'node:path';
import { accountPaths, FILES_API, type UploadRow } from '@cellcloud/contracts';
import { tusSend } from '../../apps/server/test/files-helpers';
import type { RunningServer } from './server';
import type { NewUser } from './flows';

/** Test setup through the API (the screens under test are elsewhere): register, log in, upload. */
const form = (body: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(body),
});

export async function registerAndLogIn(server: RunningServer, user: NewUser): Promise<string> {
  const sent = await fetch(
    `${server.url}${accountPaths.sendMessage}`,
    form({ email: user.email, purpose: 'register' }),
  );
  if (sent.status !== 200) throw new Error(`sendMessage ${sent.status}`);
  const code = await server.waitForCode(user.email, 'register');
  const reg = await fetch(
    `${server.url}${accountPaths.register}`,
    form({
      username: user.username,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: user.email,
      phone: '',
      password: user.password,
      repeatPassword: user.password,
      institution: 'Test Institute',
      researchInterest: 'immunology',
      emailCode: code,
      marketingConsent: 'false',
      termsAgreed: 'true',
    }),
  );
  if (reg.status !== 200) throw new Error(`register ${reg.status}`);
  const login = await fetch(
    `${server.url}${accountPaths.login}`,
    form({ username: user.username, password: user.password }),
  );
  const body = (await login.json()) as { data: { token: string } };
  return body.data.token;
}

/** Uploads one sample's files with the real tus client and waits until it is parsed. */
export async function uploadParsed(
  server: RunningServer,
  token: string,
  sampleName: string,
  paths: string[],
): Promise<UploadRow> {
  const files = paths.map((p) => ({
    name: path.basename(p),
    bytes: new Uint8Array(readFileSync(p)),
    role: 'data' as const,
  }));
  const res = await fetch(`${server.url}${FILES_API.uploads}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'access-token': token },
    body: JSON.stringify({
      sampleName,
      kind: 'matrix',
      files: files.map((f) => ({ name: f.name, size: f.bytes.length, role: f.role })),
    }),
  });
  const row = ((await res.json()) as { data: UploadRow }).data;
  for (const [i, f] of files.entries()) await tusSend(server.url, token, row.files[i]!.slot, f);
  const end = Date.now() + 180_000;
  while (Date.now() < end) {
    const r = (await (
      await fetch(`${server.url}${FILES_API.upload(row.id)}`, { headers: { 'access-token': token } })
    ).json()) as { data: UploadRow };
    if (r.data.state === 'completed' || r.data.state === 'failed') return r.data;
    await new Promise((ok) => setTimeout(ok, 500));
  }
  throw new Error(`upload ${sampleName} was not parsed in time`);
}
