import { avatarOf, DEFAULT_AVATAR, displayName } from '@/components/user';
import fs from 'fs';
import path from 'path';

describe('display name', () => {
  it('prefers the nickname', () => {
    expect(displayName({ nickname: '小明', username: 'xiaoming', avatar: null })).toBe('小明');
  });
  it('falls back to the username when there is no nickname', () => {
    expect(displayName({ nickname: null, username: 'xiaoming', avatar: null })).toBe('xiaoming');
    expect(displayName({ nickname: '  ', username: 'xiaoming', avatar: null })).toBe('xiaoming');
  });
  it('says 未登录 without a user', () => {
    expect(displayName(null)).toBe('未登录');
    expect(displayName(undefined)).toBe('未登录');
  });
});

describe('avatar', () => {
  it('uses the user avatar, else the default picture', () => {
    expect(avatarOf({ nickname: null, username: 'a', avatar: '/a.png' })).toBe('/a.png');
    expect(avatarOf({ nickname: null, username: 'a', avatar: null })).toBe('/assets/avatar/default.png');
    expect(avatarOf(null)).toBe(DEFAULT_AVATAR);
  });
  it('ships the default avatar as a real PNG', () => {
    const file = fs.readFileSync(path.join(__dirname, '../../../public', DEFAULT_AVATAR));
    expect(file.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
  });
});
