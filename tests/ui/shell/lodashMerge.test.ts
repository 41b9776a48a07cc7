import merge from '@/shims/lodashMerge';

// Umi's antd plugin calls merge({}, current, change) when a page changes the ConfigProvider
// (useAntdConfigSetter); .umirc.ts points its lodash/merge import here.
describe('the merge that stands in for lodash/merge in the antd plugin', () => {
  it('deep-merges a change into a new object and leaves its inputs alone', () => {
    const current = { theme: { token: { colorPrimary: '#1677ff', borderRadius: 6 } }, componentSize: 'middle' };
    const change = { theme: { token: { colorPrimary: '#52c41a' } } };
    const merged = merge<object>({}, current, change);
    expect(merged).toEqual({ theme: { token: { colorPrimary: '#52c41a', borderRadius: 6 } }, componentSize: 'middle' });
    expect(current.theme.token.colorPrimary).toBe('#1677ff');
    expect(merged).not.toBe(current);
  });

  it('replaces an array (a new list of theme algorithms) instead of merging it index by index', () => {
    const dark = () => ({});
    const compact = () => ({});
    expect(merge<object>({}, { theme: { algorithm: [dark, compact] } }, { theme: { algorithm: [compact] } })).toEqual({
      theme: { algorithm: [compact] },
    });
  });
});
