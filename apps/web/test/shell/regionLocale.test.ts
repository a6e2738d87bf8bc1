import { describe, expect, it } from 'vitest';
import { regionDefaultLocale } from '../../src/app/regionDomain';

const domains = { cn: 'cn.example.org', global: 'example.org' };

describe('language chosen by the region check (issue 31: a zh-CN browser on a fresh install got English)', () => {
  it('without regional domains the region sets no language: the browser language stands', () => {
    expect(regionDefaultLocale({ countryIsoCode: 'US', domains: null })).toBeNull();
    expect(regionDefaultLocale({ countryIsoCode: 'CN', domains: null })).toBeNull();
  });
  it('with regional domains the visitor’s country decides', () => {
    expect(regionDefaultLocale({ countryIsoCode: 'CN', domains })).toBe('zh-CN');
    expect(regionDefaultLocale({ countryIsoCode: 'DE', domains })).toBe('en-US');
  });
});
