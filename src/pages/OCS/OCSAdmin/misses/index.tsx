/**
 * /OCS/OCSAdmin/misses: the 未收录 queue, questions users asked that found no answer (counted, most
 * asked first). Each answer, typed here or accepted from an AI draft, becomes a verified bank entry.
 */
import { PageContainer } from '@ant-design/pro-components';
import MissTable from './components/MissTable';

export default function MissesPage() {
  return (
    <PageContainer
      title="未收录题目"
      content="用户问过但没有找到答案的题目（同一题的不同写法合并计数）。补录的答案会作为“已核实”题目加入题库，下次直接命中。"
    >
      <MissTable />
    </PageContainer>
  );
}
