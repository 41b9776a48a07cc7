/** All users: search, role/status filters, sort by created or last login, page size 10. */
import type { AdminUser } from '@/contract';
import { TABLE_PAGINATION, searchOpenOnWideScreens } from '@/requestDefaults';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ActionType } from '@ant-design/pro-components';
import { Link, useModel } from '@umijs/max';
import { Button } from 'antd';
import { useRef, useState } from 'react';
import { toUserListQuery, type UserSearchParams } from '../query';
import DeleteUserModal from './DeleteUserModal';
import { userColumns } from './userColumns';
import { useTableSettings } from '@/components/tableSettings';

export default function UserTable({ onAudit }: { onAudit: (user: AdminUser) => void }) {
  const tableSettings = useTableSettings('user.admin.users');
  const { initialState } = useModel('@@initialState');
  const actionRef = useRef<ActionType>();
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  return (
    <>
      <ProTable<AdminUser, UserSearchParams>
        rowKey="uid"
        headerTitle="用户列表"
        actionRef={actionRef}
        columns={userColumns({ selfUid: initialState?.currentUser?.uid, onDelete: setDeleting, onAudit })}
        request={(params, sort) => call(userApi.adminListUsers, { query: toUserListQuery(params, sort) })}
        pagination={TABLE_PAGINATION}
        search={searchOpenOnWideScreens()}
        {...tableSettings}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '没有符合条件的用户' }}
        toolBarRender={() => [
          <Link key="new" to="/user/admin/createUser">
            <Button type="primary" icon={<PlusOutlined aria-hidden />}>
              新建用户
            </Button>
          </Link>,
        ]}
      />
      <DeleteUserModal
        user={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => actionRef.current?.reload()}
      />
    </>
  );
}
