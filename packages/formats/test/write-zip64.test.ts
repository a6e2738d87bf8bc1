import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { zipWriter } from '../src/write-zip';
import { centralHeader, dataDescriptor } from '../src/zip-records';

/**
 * ZIP64 of the streamed zip (the Seurat bundle, issue 21), checked by other readers: Python's
 * zipfile and Info-ZIP unzip read an archive of 70,000 entries (ZIP64 end records) and one whose
 * entries sit past 4 GiB in a sparse file (ZIP64 offsets, ZIP64 directory offset) — no 4 GiB on
 * disk; the size fields of a > 4 GiB entry are checked on the records themselves.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'zip64-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const enc = new TextEncoder();
const python = '/usr/bin/python3';

function pythonRead(file: string): { count: number; names: string[]; texts: string[]; bad: string | null } {
  const script = [
    'import json, sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'names = z.namelist()',
    'pick = [names[0], names[-1]]',
    'print(json.dumps({"count": len(names), "names": pick, "texts": [z.read(n).decode() for n in pick], "bad": z.testzip()}))',
  ].join('\n');
  const r = spawnSync(python, ['-c', script, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as ReturnType<typeof pythonRead>;
}

function unzipTest(file: string): string {
  return spawnSync('unzip', ['-tq', file], { encoding: 'utf8' }).stdout;
}

describe('streamed zip with ZIP64 records', () => {
  it('writes 70,000 entries with the ZIP64 end records', () => {
    const out: Uint8Array[] = [];
    const zip = zipWriter((c) => out.push(c.slice()));
    for (let i = 0; i < 70_000; i++) zip.add(`cells/${i}.txt`, [enc.encode(`cell ${i}\n`)], { stored: true });
    zip.end();
    const file = path.join(dir, 'many.zip');
    writeFileSync(file, Buffer.concat(out));
    const r = pythonRead(file);
    expect(r).toEqual({
      count: 70_000,
      names: ['cells/0.txt', 'cells/69999.txt'],
      texts: ['cell 0\n', 'cell 69999\n'],
      bad: null,
    });
    if (existsSync('/usr/bin/unzip')) expect(unzipTest(file)).toMatch(/No errors detected/);
  });

  it('writes entries past 4 GiB with ZIP64 offsets (sparse file)', () => {
    const file = path.join(dir, 'far.zip');
    const start = 2 ** 32 + 12_345; // a sparse hole before the archive (as a preamble)
    const fd = openSync(file, 'w');
    let at = start;
    try {
      const zip = zipWriter((c) => {
        for (let done = 0; done < c.length;) done += writeSync(fd, c, done, c.length - done, at + done);
        at += c.length;
      }, start);
      zip.add('metadata.csv', [enc.encode('barcode,cluster\n'), enc.encode('AAAC-1,3\n')]);
      zip.add('load_seurat.R', [enc.encode('library(Seurat)\n')], { stored: true });
      zip.end();
    } finally {
      closeSync(fd);
    }
    const r = pythonRead(file);
    expect(r.count).toBe(2);
    expect(r.names).toEqual(['metadata.csv', 'load_seurat.R']);
    expect(r.texts).toEqual(['barcode,cluster\nAAAC-1,3\n', 'library(Seurat)\n']);
    expect(r.bad).toBeNull();
    // unzip reads it too (it notes the preamble as extra bytes, not an error)
    if (existsSync('/usr/bin/unzip')) expect(unzipTest(file)).toMatch(/No errors detected/);
  });

  it('puts sizes of 4 GiB and more in the ZIP64 fields', () => {
    const e = {
      name: 'big.mtx',
      method: 8 as const,
      crc: 0x1234,
      compressedSize: 2 ** 32 + 7,
      size: 5 * 2 ** 32,
      offset: 2 ** 33,
    };
    const dd = new DataView(dataDescriptor(e).buffer);
    expect(dd.byteLength).toBe(24);
    expect(dd.getBigUint64(8, true)).toBe(BigInt(e.compressedSize));
    expect(dd.getBigUint64(16, true)).toBe(BigInt(e.size));
    const ch = centralHeader(e);
    const v = new DataView(ch.buffer);
    expect(v.getUint32(20, true)).toBe(0xffffffff); // compressed size → extra field
    expect(v.getUint32(24, true)).toBe(0xffffffff); // size → extra field
    expect(v.getUint32(42, true)).toBe(0xffffffff); // offset → extra field
    const extra = 46 + 'big.mtx'.length;
    expect([v.getUint16(extra, true), v.getUint16(extra + 2, true)]).toEqual([1, 24]);
    expect(v.getBigUint64(extra + 4, true)).toBe(BigInt(e.size));
    expect(v.getBigUint64(extra + 12, true)).toBe(BigInt(e.compressedSize));
    expect(v.getBigUint64(extra + 20, true)).toBe(BigInt(e.offset));
    // below 4 GiB: the classic 16-byte descriptor and no extra field
    const small = { ...e, compressedSize: 10, size: 20, offset: 100 };
    expect(dataDescriptor(small).byteLength).toBe(16);
    expect(new DataView(centralHeader(small).buffer).getUint16(30, true)).toBe(0);
  });
});
