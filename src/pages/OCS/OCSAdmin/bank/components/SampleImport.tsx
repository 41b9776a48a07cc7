/**
 * 导入示例题库: the sample bank shipped with the portal, in one click after a confirmation that says
 * what it is. Questions already in the bank are skipped, so clicking twice adds nothing.
 */
import { errorMessageOf } from '@/requestErrorConfig';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call } from '@/services/call';
import { Button, message, Popconfirm, Typography } from 'antd';
import { useState } from 'react';

const SAMPLE_NOTE =
  '示例题库是随本门户附带的两百多道常识题（地理、算术、基础科学、中华文化、生活常识），由本项目编写，' +
  '用于在导入正式题库前体验查题流程，不是任何课程或考试的真实题目。已在题库中的题目会跳过；' +
  '导入后可在下方题目列表中修改或删除。';

export default function SampleImport({ onImported }: { onImported: () => void }) {
  const [running, setRunning] = useState(false);

  const run = async () => {
    setRunning(true);
    try {
      const r = (await call(ocsAdminApi.importSampleBank, {}, { skipErrorHandler: true })).data;
      if (r.inserted > 0) {
        message.success(
          `已导入示例题库：新增 ${r.inserted} 题${r.skipped ? `，另有 ${r.skipped} 题已在题库中（未改动）` : ''}`,
        );
      } else {
        message.info(`示例题库的 ${r.total} 道题都已在题库中，没有新增`);
      }
      onImported();
    } catch (e) {
      message.error(`导入示例题库失败：${errorMessageOf(e)}`);
    } finally {
      setRunning(false);
    }
  };

  return (
    <Popconfirm
      title="导入示例题库？"
      description={
        <Typography.Paragraph style={{ maxWidth: 320, marginBottom: 0 }}>{SAMPLE_NOTE}</Typography.Paragraph>
      }
      okText="导入"
      cancelText="取消"
      onConfirm={run}
    >
      <Button loading={running}>导入示例题库</Button>
    </Popconfirm>
  );
}
