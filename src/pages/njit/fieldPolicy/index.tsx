/**
 * /njit/fieldPolicy (administrators): who may see which student field, which students each counselor
 * or teacher may look up, and a preview of one student as a role sees them.
 */
import { PageContainer, ProCard } from '@ant-design/pro-components';
import PolicyGrid from './components/PolicyGrid';
import PolicyPreview from './components/PolicyPreview';
import ScopeTable from './components/ScopeTable';

export default function FieldPolicyPage() {
  return (
    <PageContainer content="按角色设置学生字段的可见程度：只给每个角色工作所需的字段。所有查询、详情、全局搜索和审计导出都按此策略返回。">
      <ProCard direction="column" gutter={[0, 16]} ghost>
        <ProCard title="字段策略" headerBordered>
          <PolicyGrid />
        </ProCard>
        <ProCard title="辅导员、教师的查询范围" headerBordered>
          <ScopeTable />
        </ProCard>
        <ProCard title="按角色预览" headerBordered>
          <PolicyPreview />
        </ProCard>
      </ProCard>
    </PageContainer>
  );
}
