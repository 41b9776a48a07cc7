/** The user's DingTalk channels, loaded once per page, with the default one picked out. */
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { useRequest } from 'ahooks';

export function useChannels() {
  const { data, loading, error, refresh, mutate } = useRequest(() => call(umsApi.listChannels));
  const channels = data?.data ?? [];
  return {
    channels,
    defaultChannel: channels.find((c) => c.isDefault) ?? channels[0],
    /** True once the list has arrived (an error leaves it false, so no false "empty" state). */
    loaded: data !== undefined,
    loading,
    error,
    refresh,
    mutate,
  };
}

export type ChannelsState = ReturnType<typeof useChannels>;
