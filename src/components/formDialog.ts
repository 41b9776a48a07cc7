/**
 * For a ModalForm or DrawerForm that starts afresh (from its initial values) each time it opens: its
 * content is destroyed once hidden and its form reset. pro-form resets the form itself only with
 * antd's `destroyOnClose`, which antd deprecated for `destroyOnHidden` (a console warning in
 * development wherever one is used).
 */
import type { FormInstance } from 'antd';

export function freshModal(form: FormInstance) {
  return { destroyOnHidden: true, afterClose: () => form.resetFields() };
}

export function freshDrawer(form: FormInstance) {
  return {
    destroyOnHidden: true,
    afterOpenChange: (open: boolean) => {
      if (!open) form.resetFields();
    },
  };
}
