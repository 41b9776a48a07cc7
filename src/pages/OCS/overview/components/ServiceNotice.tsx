/**
 * What a user is told while the portal cannot answer anything: no question in the bank and no AI
 * model, as on a fresh install. Instead of every query silently coming back 未找到.
 */
import type { OcsServiceReady } from '@/contract';
import { Link } from '@umijs/max';
import { Alert } from 'antd';

/** Nothing to answer from: neither a bank nor an AI model. */
export const cannotAnswer = (ready: OcsServiceReady | undefined): boolean => !!ready && !ready.bank && !ready.ai;

export default function ServiceNotice({ isAdmin = false }: { isAdmin?: boolean }) {
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="ocs-service-notice"
      message="管理员尚未完成 OCS 设置"
      description={
        isAdmin ? (
          <>
            {'题库是空的，也没有启用的 AI 模型，现在查题只会得到“未找到”（不扣积分）。'}
            <Link to="/OCS/OCSAdmin/bank">去导入题库</Link>或<Link to="/OCS/OCSAdmin/models">配置 AI 模型</Link>。
          </>
        ) : (
          '题库是空的，也没有可用的 AI 模型，现在查题只会得到“未找到”（不扣积分）。请联系管理员导入题库或配置 AI 模型后再使用。'
        )
      }
    />
  );
}
