import { applyOcsHandler, buildAnswererConfig, fillTemplate, subscriptionUrl } from '../../../src/contract';

describe('buildAnswererConfig', () => {
  test('one wrapper pointing at the query API, with the OCS placeholders and the token', () => {
    const [w, ...rest] = buildAnswererConfig({
      baseUrl: 'https://p.example',
      token: 'pt_abc',
      requestType: 'fetch',
      method: 'post',
    });
    expect(rest).toEqual([]);
    expect(w).toMatchObject({
      homepage: 'https://p.example/OCS/overview',
      url: 'https://p.example/api/ocs/query',
      type: 'fetch',
      method: 'post',
      contentType: 'json',
      data: { title: '${title}', type: '${type}', options: '${options}', token: 'pt_abc' },
    });
  });

  test('its handler string and applyOcsHandler agree on what OCS receives', () => {
    const [w] = buildAnswererConfig({
      baseUrl: 'https://p.example',
      token: 't',
      requestType: 'GM_xmlhttpRequest',
      method: 'get',
    });
    // OCS builds the handler with new Function; the pages cannot (CSP), so they use applyOcsHandler.
    const handler = new Function(w.handler)() as (res: unknown) => unknown;
    const found = { code: 1, question: '1+1=?', answer: '2', source: 'bank', cost: 1, balance: 9 };
    const missing = { code: 0, msg: '余额不足' };
    expect(handler(found)).toEqual(['1+1=?', '2']);
    expect(handler(missing)).toEqual(['余额不足', undefined]);
    expect(applyOcsHandler(found)).toEqual(handler(found));
    expect(applyOcsHandler(missing)).toEqual(handler(missing));
  });
});

describe('fillTemplate', () => {
  test('substitutes the three placeholders once and leaves other values alone', () => {
    const data = {
      title: '${title}',
      type: '${type}',
      options: '${options}',
      token: 'pt_x',
      mixed: '[${type}] ${title}',
    };
    expect(fillTemplate(data, { title: '谁写了 ${type}？', type: 'single', options: 'A. $&\nB. b' })).toEqual({
      title: '谁写了 ${type}？',
      type: 'single',
      options: 'A. $&\nB. b',
      token: 'pt_x',
      mixed: '[single] 谁写了 ${type}？',
    });
  });
});

test('subscriptionUrl encodes the token and options', () => {
  expect(subscriptionUrl('https://p.example/api/ocs/config', { token: 'pt_a+b', type: 'fetch', method: 'post' })).toBe(
    'https://p.example/api/ocs/config?token=pt_a%2Bb&type=fetch&method=post',
  );
});
