/** /OCS/OCSAdmin/userManage: OCS users with balances and usage, balance adjustments, and links to the other admin pages. */
import { PageContainer } from '@ant-design/pro-components';
import { Space } from 'antd';
import SetupChecklist from '../components/SetupChecklist';
import AdminLinks from './components/AdminLinks';
import UsersTable from './components/UsersTable';

export default function OcsUserManagePage() {
  return (
    <PageContainer
      title="OCS 用户管理"
      content="查看每位用户的余额与使用情况；调整余额须填写原因，会记入用户账单和审计日志。"
    >
      <SetupChecklist />
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        <AdminLinks />
        <UsersTable />
      </Space>
    </PageContainer>
  );
}
