import { loginPath, safeRedirect } from '@/components/redirect';

describe('safeRedirect (no open redirect)', () => {
  it.each([
    ['/OCS/bill', '/OCS/bill'],
    ['/UMS/queryMessage?page=2#top', '/UMS/queryMessage?page=2#top'],
    ['/user/me?next=%2F%2Fevil.com', '/user/me?next=%2F%2Fevil.com'],
  ])('accepts the same-origin path %s', (raw, expected) => {
    expect(safeRedirect(raw)).toBe(expected);
  });

  it.each([
    ['empty', ''],
    ['null', null],
    ['undefined', undefined],
    ['protocol-relative', '//evil.com'],
    ['protocol-relative with path', '//evil.com/OCS'],
    ['absolute https', 'https://evil.com'],
    ['absolute http on the path', 'http://localhost/home'],
    ['backslash', '/\\evil.com'],
    ['backslash twice', '/\\\\evil.com'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['data scheme', 'data:text/html,<script>alert(1)</script>'],
    ['relative without slash', 'home'],
    ['encoded slashes', '%2F%2Fevil.com'],
    ['encoded second slash', '/%2Fevil.com'],
    ['encoded backslash', '/%5Cevil.com'],
    ['encoded scheme', 'https%3A%2F%2Fevil.com'],
    ['tab trick', '/\t/evil.com'],
    ['newline trick', '/\n/evil.com'],
    ['broken encoding', '/%E0%A4%A'],
    ['back to login', '/user/login?redirect=/home'],
  ])('rejects %s', (_name, raw) => {
    expect(safeRedirect(raw as string | null | undefined)).toBe('/home');
  });
});

describe('loginPath', () => {
  it('carries the current path and query as redirect', () => {
    expect(loginPath({ pathname: '/OCS/bill', search: '?page=2' })).toBe(
      '/user/login?redirect=%2FOCS%2Fbill%3Fpage%3D2',
    );
  });
  it('round-trips through URLSearchParams and safeRedirect', () => {
    const url = new URL(loginPath({ pathname: '/UMS/self', search: '?a=1&b=2' }), 'http://x');
    expect(safeRedirect(url.searchParams.get('redirect'))).toBe('/UMS/self?a=1&b=2');
  });
});
