import type { MessageAttempt } from '@/contract';
import AttemptTimeline from '@/pages/UMS/components/AttemptTimeline';
import { render, screen } from '@testing-library/react';

const attempt = (id: number, outcome: MessageAttempt['outcome'], errmsg: string | null): MessageAttempt => ({
  id,
  at: '2025-01-02T04:06:00.000Z',
  httpStatus: outcome === 'delivered' ? 200 : null,
  errcode: outcome === 'delivered' ? 0 : null,
  errmsg,
  detail: null,
  durationMs: outcome === 'delivered' ? 120 : 0,
  channelId: 1,
  channelKind: 'dingtalk',
  outcome,
});

describe('AttemptTimeline', () => {
  it('says an attempt cut short by its server was interrupted, and one under way is being sent', () => {
    render(
      <AttemptTimeline
        attempts={[
          attempt(1, 'interrupted', '服务器在发送途中停止，不知道对方是否已收到；消息已重新排队发送'),
          attempt(2, 'delivered', 'ok'),
          attempt(3, 'pending', null),
        ]}
      />,
    );
    const [cut, delivered, underWay] = screen.getAllByTestId('attempt');
    expect(cut).toHaveTextContent('已中断（结果未知）');
    expect(cut).toHaveTextContent('服务器在发送途中停止，不知道对方是否已收到');
    expect(delivered).toHaveTextContent('成功');
    expect(underWay).toHaveTextContent('发送中');
    expect(underWay).not.toHaveTextContent('中断');
  });
});
