/** Renders its children only once the user has a channel: loading, load error and "none yet" in between. */
import type { Channel } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import { Alert, Button, Skeleton } from 'antd';
import type React from 'react';
import NoChannel from './NoChannel';
import type { ChannelsState } from './useChannels';

interface Props {
  state: ChannelsState;
  children: (defaultChannel: Channel) => React.ReactNode;
}

export default function ChannelsGate({ state, children }: Props) {
  if (state.defaultChannel) return <>{children(state.defaultChannel)}</>;
  if (state.loaded) return <NoChannel />;
  if (state.error && !state.loading) {
    return (
      <Alert
        type="error"
        showIcon
        message={`渠道加载失败：${errorMessageOf(state.error)}`}
        action={
          <Button size="small" onClick={state.refresh}>
            重试
          </Button>
        }
      />
    );
  }
  return <Skeleton active />;
}
