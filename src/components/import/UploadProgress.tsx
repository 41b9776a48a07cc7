/** Upload progress; at 100 % the server is still parsing and validating the file. */
import { Alert, Progress } from 'antd';

export interface UploadProgressProps {
  fileName: string;
  /** 0–100. */
  percent: number;
}

export default function UploadProgress({ fileName, percent }: UploadProgressProps) {
  return (
    <Alert
      type="info"
      message={percent < 100 ? `正在上传 ${fileName}…` : '上传完成，服务器正在解析和校验…'}
      description={<Progress percent={percent} status="active" />}
    />
  );
}
