/** The URL a log line shows: secrets redacted, long query strings (OCS questions) cut. */
import { LOGGED_QUERY_MAX, logUrl } from '../../server/logger';

const title = encodeURIComponent('下列关于社会主义核心价值观的说法中，正确的是哪一项？'.repeat(6));

test('a short URL is kept whole, its secrets redacted', () => {
  expect(logUrl('/api/ocs/query?title=abc&token=tok-secret-1')).toBe('/api/ocs/query?title=abc&token=[REDACTED]');
  expect(logUrl('/api/health')).toBe('/api/health');
  expect(logUrl('/SCT123secret.send?title=hi')).toBe('/[REDACTED].send?title=hi');
});

test('a long query string is cut after LOGGED_QUERY_MAX characters, with the count left out', () => {
  const url = `/api/ocs/query?title=${title}&type=single&options=${title}`;
  const logged = logUrl(url);
  const kept = `/api/ocs/query?`.length + LOGGED_QUERY_MAX;
  expect(logged).toBe(`${url.slice(0, kept)}…(+${url.length - kept})`);
  expect(logged.length).toBeLessThan(300);
});

test('a token is never shown, wherever the cut falls', () => {
  const secret = 'tok-very-secret-0123456789';
  for (let pad = 0; pad < 260; pad += 7) {
    const url = `/api/ocs/query?title=${'x'.repeat(pad)}&token=${secret}&type=${title}`;
    const logged = logUrl(url);
    expect(logged).not.toContain('tok-very');
    for (let n = 6; n <= secret.length; n++) expect(logged).not.toContain(secret.slice(0, n));
  }
  // Before the cut: redacted in place.
  expect(logUrl(`/api/ocs/query?token=${secret}&title=${title}`)).toMatch(
    /^\/api\/ocs\/query\?token=\[REDACTED\]&title=/,
  );
});
