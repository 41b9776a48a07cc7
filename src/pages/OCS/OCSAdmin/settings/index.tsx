/** /OCS/OCSAdmin/settings: price, free amount, fuzzy threshold and rate limit of the OCS service. */
import { PageContainer } from '@ant-design/pro-components';
import { Card } from 'antd';
import SetupChecklist from '../components/SetupChecklist';
import SettingsForm from './components/SettingsForm';

export default function OcsSettingsPage() {
  return (
    <PageContainer title="服务设置" content="修改后立即生效（其他服务实例在 5 秒内生效），每次修改都会记入审计日志。">
      <SetupChecklist />
      <Card>
        <SettingsForm />
      </Card>
    </PageContainer>
  );
}
