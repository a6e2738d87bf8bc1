import { describe, expect, it } from 'vitest';
import '../src/http/app'; // every route module registers its area's messages
import { allCatalogs } from '../src/i18n/translate';

const params = (s: string) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))].sort();
const KEY_LIKE = /^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9_]+){2,}$/;

/**
 * Issue 31: no error a user can meet names an internal key or shows `[object …]`. Every message
 * the server renders (all areas' catalogues, loaded with the routes): not a bare key, no
 * `[object`, and the zh-CN text takes exactly the en-US parameters (one only zh-CN names is
 * shown raw as `{name}`; one only en-US names is lost in Chinese).
 */
describe('server message catalogues (issue 31)', () => {
  const { 'en-US': en, 'zh-CN': zh } = allCatalogs();
  it('holds the areas’ messages', () => {
    expect(Object.keys(en).length).toBeGreaterThan(200);
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });
  it('no message is a key or shows [object …]', () => {
    const bad = Object.entries({
      ...en,
      ...Object.fromEntries(Object.entries(zh).map(([k, v]) => [`zh:${k}`, v])),
    })
      .filter(([, v]) => KEY_LIKE.test(v.trim()) || v.includes('[object'))
      .map(([k, v]) => `${k}: ${v}`);
    expect(bad).toEqual([]);
  });
  it('zh-CN takes exactly the en-US parameters', () => {
    const bad = Object.keys(en)
      .filter((k) => params(en[k]!).join() !== params(zh[k] ?? '').join())
      .map((k) => `${k}: en {${params(en[k]!).join()}} zh {${params(zh[k] ?? '').join()}}`);
    expect(bad).toEqual([]);
  });
});
