/** Balance and today's numbers: 余额, 今日查询, 命中率, 今日消费. */
import type { OcsOverview } from '@/contract';
import { StatisticCard } from '@ant-design/pro-components';
import { Link } from '@umijs/max';

export default function TodayStats({ s }: { s: OcsOverview }) {
  const { today } = s;
  return (
    <StatisticCard.Group direction="row" data-testid="today-stats">
      <StatisticCard
        statistic={{
          title: '余额',
          value: s.balance,
          suffix: '积分',
          description: <Link to="/OCS/freeChange">领取或兑换</Link>,
        }}
      />
      <StatisticCard.Divider />
      <StatisticCard
        statistic={{
          title: '今日查询',
          value: today.queries,
          suffix: '次',
          description: `已作答 ${today.answered} 次`,
        }}
      />
      <StatisticCard.Divider />
      <StatisticCard
        statistic={{
          title: '命中率',
          // hitRate is a fraction (answered / queries); show a percentage with one decimal.
          value: today.queries ? (today.hitRate * 100).toFixed(1) : '-',
          suffix: today.queries ? '%' : undefined,
          description: '今日有答案的查询占比',
        }}
      />
      <StatisticCard.Divider />
      <StatisticCard
        statistic={{ title: '今日消费', value: today.spent, suffix: '积分', description: `每次作答 ${s.price} 积分` }}
      />
    </StatisticCard.Group>
  );
}
