/**
 * The app's one antd ConfigProvider with its setter, as Umi's antd plugin makes it
 * (src/.umi/plugin-antd/runtime.tsx), for a test of what sets it (useAntdConfigSetter).
 */
import { AntdConfigContextSetter } from '@@/plugin-antd/context';
import merge from '@/shims/lodashMerge';
import { ConfigProvider, type ConfigProviderProps } from 'antd';
import React, { useCallback, useState, type ReactNode, type SetStateAction } from 'react';

export function AppConfigProvider({ children }: { children: ReactNode }) {
  // As there, a theme from the start (antd's provider adds a context for one: the tree keeps its shape).
  const [config, setConfig] = useState<ConfigProviderProps>({ theme: {} });
  const set = useCallback(
    (change: SetStateAction<ConfigProviderProps>) =>
      setConfig((prev) => merge({}, prev, typeof change === 'function' ? change(prev) : change)),
    [],
  );
  return (
    <AntdConfigContextSetter.Provider value={set}>
      <ConfigProvider {...config}>{children}</ConfigProvider>
    </AntdConfigContextSetter.Provider>
  );
}
