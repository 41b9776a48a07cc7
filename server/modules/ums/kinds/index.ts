/** The channel kinds by name: the only place the worker and the channel service look an adapter up. */
import type { ChannelKind } from '../../../../src/contract';
import { dingtalk } from './dingtalk';
import { email } from './email';
import { feishu } from './feishu';
import type { ChannelAdapter } from './types';
import { webhook } from './webhook';
import { wecom } from './wecom';

export const ADAPTERS: Record<ChannelKind, ChannelAdapter> = { dingtalk, wecom, feishu, webhook, email };

export function adapterOf(kind: string): ChannelAdapter {
  const adapter = ADAPTERS[kind as ChannelKind];
  if (!adapter) throw new Error(`unknown channel kind ${kind}`);
  return adapter;
}

export type * from './types';
