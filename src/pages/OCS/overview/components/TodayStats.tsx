/**
 * Balance and today's numbers: 余额, 今日查询, 命中率, 今日消费. One row with dividers from a tablet up;
 * two by two on a phone, where four columns would squeeze the titles to a character per line.
 */
import type { OcsOverview } from '@/contract';
import { StatisticCard, type StatisticProps } from '@ant-design/pro-components';
import { Link } from '@umijs/max';
import { Grid } from 'antd';

export default function TodayStats({ s }: { s: OcsOverview }) {
  const { today } = s;
  const wide = !!Grid.useBreakpoint().md;
  const items: StatisticProps[] = [
    { title: '余额', value: s.balance, suffix: '积分', description: <Link to="/OCS/freeChange">领取或兑换</Link> },
    { title: '今日查询', value: today.queries, suffix: '次', description: `已作答 ${today.answered} 次` },
    {
      title: '命中率',
      // hitRate is a fraction (answered / queries); show a percentage with one decimal.
      value: today.queries ? (today.hitRate * 100).toFixed(1) : '-',
      suffix: today.queries ? '%' : undefined,
      description: '今日有答案的查询占比',
    },
    { title: '今日消费', value: today.spent, suffix: '积分', description: `每次作答 ${s.price} 积分` },
  ];
  return (
    <StatisticCard.Group direction="row" wrap={!wide} data-testid="today-stats">
      {items.flatMap((statistic, i) => [
        wide && i > 0 ? <StatisticCard.Divider key={`divider-${i}`} /> : null,
        <StatisticCard key={String(statistic.title)} colSpan={wide ? undefined : 12} statistic={statistic} />,
      ])}
    </StatisticCard.Group>
  );
}
