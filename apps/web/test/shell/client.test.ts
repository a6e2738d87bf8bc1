import { afterEach, describe, expect, it, vi } from 'vitest';

// The request client reads the locale from the i18n module, which needs a DOM; this test only
// exercises URL building and the docs/product/errors.md#status-handling status mapping, so it provides what those need.
vi.stubGlobal('window', {
  localStorage: { getItem: () => null, setItem: () => undefined, removeItem: () => undefined },
});
vi.stubGlobal('document', { documentElement: { lang: 'en-US' } });
vi.stubGlobal('navigator', { language: 'en-US' });

const { buildUrl, presentError, ApiError } = await import('../../src/api/client');
const { setErrorPresenter } = await import('../../src/api/errorPresenter');

describe('request client', () => {
  afterEach(() => setErrorPresenter(null));

  it('repeats array parameters and leaves out empty ones', () => {
    expect(buildUrl('/api/x', { a: [1, 2], b: 'c d', n: undefined, m: null })).toBe('/api/x?a=1&a=2&b=c+d');
    expect(buildUrl('/api/x')).toBe('/api/x');
  });

  it('maps statuses to the docs/product/errors.md#status-handling behaviours', () => {
    const calls: string[] = [];
    setErrorPresenter({
      maintenance: () => calls.push('maintenance'),
      expired: () => calls.push('expired'),
      forbidden: () => calls.push('forbidden'),
      notFound: () => calls.push('notFound'),
      serverMessage: (m) => calls.push(`msg:${m}`),
    });
    for (const s of [0, 500, 503, 502, 401, 403, 404, 409]) presentError(new ApiError(s, s, `m${s}`));
    expect(calls).toEqual([
      'maintenance',
      'maintenance',
      'maintenance',
      'maintenance',
      'expired',
      'forbidden',
      'notFound',
      'msg:m409',
    ]);
  });
});
