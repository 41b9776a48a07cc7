/**
 * The side menu's icons, by the names config/routes.ts gives in `menuIcon`. Loaded on its own when the
 * layout first draws a menu (menu.ts), so neither umi.js nor the login page carries them.
 */
import {
  ApiOutlined,
  AuditOutlined,
  BarcodeOutlined,
  BarsOutlined,
  BellOutlined,
  CloudServerOutlined,
  CodeOutlined,
  CommentOutlined,
  ContactsOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DingtalkOutlined,
  DownloadOutlined,
  EditOutlined,
  FileSearchOutlined,
  FormOutlined,
  GiftOutlined,
  HomeOutlined,
  IdcardOutlined,
  KeyOutlined,
  LockOutlined,
  NotificationOutlined,
  QuestionOutlined,
  ReadOutlined,
  RobotOutlined,
  SafetyOutlined,
  SearchOutlined,
  SendOutlined,
  SettingOutlined,
  TeamOutlined,
  ToolOutlined,
  TransactionOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

export const MENU_ICONS: Record<string, ComponentType> = {
  api: ApiOutlined,
  audit: AuditOutlined,
  barcode: BarcodeOutlined,
  bars: BarsOutlined,
  bell: BellOutlined,
  cloud: CloudServerOutlined,
  code: CodeOutlined,
  comment: CommentOutlined,
  contacts: ContactsOutlined,
  dashboard: DashboardOutlined,
  database: DatabaseOutlined,
  dingtalk: DingtalkOutlined,
  download: DownloadOutlined,
  edit: EditOutlined,
  fileSearch: FileSearchOutlined,
  form: FormOutlined,
  gift: GiftOutlined,
  home: HomeOutlined,
  idcard: IdcardOutlined,
  key: KeyOutlined,
  lock: LockOutlined,
  notification: NotificationOutlined,
  question: QuestionOutlined,
  read: ReadOutlined,
  robot: RobotOutlined,
  safety: SafetyOutlined,
  search: SearchOutlined,
  send: SendOutlined,
  setting: SettingOutlined,
  team: TeamOutlined,
  tool: ToolOutlined,
  transaction: TransactionOutlined,
  user: UserOutlined,
};

/** Hidden from screen readers: the entry's name says what it is (antd names an icon in English, "home"). */
export default function MenuIconGlyph({ name }: { name: string }) {
  const Icon = MENU_ICONS[name] as ComponentType<{ 'aria-hidden'?: boolean }> | undefined;
  return Icon ? <Icon aria-hidden /> : null;
}
