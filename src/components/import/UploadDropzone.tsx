/** The drop zone of a file import: one file, never uploaded by antd itself, refused above a size limit. */
import { InboxOutlined } from '@ant-design/icons';
import { message, Upload } from 'antd';
import type { ReactNode } from 'react';

export interface UploadDropzoneProps {
  /** The `accept` attribute of the file input (extensions and MIME types). */
  accept: string;
  /** Largest file accepted, in bytes; a larger one is refused with a message and never uploaded. */
  maxBytes: number;
  /** The main line, e.g. 点击或拖拽 CSV 文件到这里上传. */
  title: ReactNode;
  /** The expected format, encodings and limits. */
  hint: ReactNode;
  /** Called with a file within the limit. */
  onFile: (file: File) => void;
}

export const megabytes = (bytes: number) => bytes / 1024 / 1024;

export default function UploadDropzone({ accept, maxBytes, title, hint, onFile }: UploadDropzoneProps) {
  return (
    <Upload.Dragger
      accept={accept}
      multiple={false}
      showUploadList={false}
      beforeUpload={(file) => {
        if (file.size > maxBytes) {
          message.error(`文件不能超过 ${megabytes(maxBytes)} MB，请拆分后分批导入`);
        } else {
          onFile(file);
        }
        return false;
      }}
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined aria-hidden />
      </p>
      <p className="ant-upload-text">{title}</p>
      <p className="ant-upload-hint">{hint}</p>
    </Upload.Dragger>
  );
}
