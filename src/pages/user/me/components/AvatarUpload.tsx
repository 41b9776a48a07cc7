/**
 * Avatar with a 更换头像 upload: PNG/JPEG/WebP up to 2 MB is checked here first, the
 * server checks the content and re-encodes; on any failure the old avatar stays.
 */
import { avatarOf } from '@/components/user';
import { AVATAR_MAX_BYTES } from '@/contract';
import { errorMessageOf, statusOf } from '@/requestErrorConfig';
import * as userApi from '@/contract/api/user';
import { upload } from '@/services/call';
import { UploadOutlined } from '@ant-design/icons';
import { Avatar, Button, message, Space, Upload, type UploadProps } from 'antd';
import { useState } from 'react';

export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** The reason a file cannot be an avatar, or undefined when it may be sent. */
export function avatarFileProblem(file: { type: string; size: number }): string | undefined {
  if (!AVATAR_TYPES.includes(file.type)) return '只支持 PNG、JPEG 或 WebP 格式的图片';
  if (file.size > AVATAR_MAX_BYTES) return '图片不能超过 2 MB';
  return undefined;
}

interface Props {
  user: { avatar: string | null; username: string; nickname: string | null };
  onChanged: (avatar: string) => void;
}

export default function AvatarUpload({ user, onChanged }: Props) {
  const [uploading, setUploading] = useState(false);

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const problem = avatarFileProblem(file);
    if (problem) {
      message.error(problem);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = async ({ file, onSuccess, onError }) => {
    setUploading(true);
    try {
      const res = await upload(userApi.uploadAvatar, file as Blob, undefined, { skipErrorHandler: true });
      onChanged(res.data.avatar);
      message.success('头像已更新');
      onSuccess?.(res);
    } catch (e) {
      message.error(statusOf(e) === 413 ? '图片不能超过 2 MB' : errorMessageOf(e));
      onError?.(e as Error);
    } finally {
      setUploading(false);
    }
  };

  return (
    <Space direction="vertical" align="center">
      <Avatar size={96} src={avatarOf(user)} alt="头像" />
      <Upload
        accept={AVATAR_TYPES.join(',')}
        showUploadList={false}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
      >
        <Button icon={<UploadOutlined aria-hidden />} loading={uploading} size="small">
          更换头像
        </Button>
      </Upload>
    </Space>
  );
}
