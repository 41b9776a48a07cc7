/** HTTP shapes of the accounts core: register, login, logout, current user. */
import { z } from 'zod';
import { ok, OkEmpty, Role } from './common';

export const USERNAME_RE = /^[A-Za-z0-9_-]+$/;

export const Username = z
  .string({ error: '请输入用户名' })
  .trim()
  .min(3, '用户名至少 3 个字符')
  .max(32, '用户名最多 32 个字符')
  .regex(USERNAME_RE, '用户名只能包含字母、数字、下划线和连字符');

export const Password = z.string({ error: '请输入密码' }).min(8, '密码至少 8 个字符').max(128, '密码最多 128 个字符');

export const Nickname = z.string().trim().max(32, '昵称最多 32 个字符');

export const RegisterBody = z.object({
  username: Username,
  password: Password,
  nickname: Nickname.optional(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.object({
  username: z.string({ error: '请输入用户名' }).trim().min(1, '请输入用户名').max(64, '用户名过长'),
  password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码最多 128 个字符'),
  remember: z.boolean().optional().default(false),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const CurrentUser = z.object({
  uid: z.number().int(),
  username: z.string(),
  nickname: z.string().nullable(),
  avatar: z.string().nullable(),
  roles: z.array(Role),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

export const MeResponse = ok(CurrentUser);
export const LoginResponse = ok(CurrentUser);
export const RegisterResponse = ok(CurrentUser);
export const LogoutResponse = OkEmpty;

/** Public settings the login/register pages need before anyone is logged in. */
export const AuthSettings = ok(z.object({ registration: z.enum(['open', 'closed']) }));
